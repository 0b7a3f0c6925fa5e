"""The seating app's pages, a module per audience: `organiser` for the organisers' seating
pages (with `presentation`, how a proposal reads to them), `public` for the seating pages,
the projector and find my seat."""
