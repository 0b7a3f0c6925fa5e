// Polls a seating run's progress and reloads the page when the run is over.
(function () {
  "use strict";
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
})();
