// Seating pages: poll a running proposal's progress (reload when it is over) and ask before
// a button marked data-confirm replaces seats.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-confirm]").forEach(function (button) {
      button.addEventListener("click", function (event) {
        if (!window.confirm(button.dataset.confirm)) { event.preventDefault(); }
      });
    });
    var box = document.getElementById("seating-progress");
    if (!box) { return; }
    var bar = box.querySelector("progress");
    function poll() {
      fetch(box.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.json(); })
        .then(function (data) {
          bar.value = data.progress;
          if (data.status !== "running" || data.stalled) {
            window.location.reload();
          } else {
            window.setTimeout(poll, 1000);
          }
        })
        .catch(function () { window.setTimeout(poll, 3000); });
    }
    window.setTimeout(poll, 500);
  });
})();
