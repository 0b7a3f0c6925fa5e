"""Writes to the core records. Every function is atomic and leaves an audit entry."""
