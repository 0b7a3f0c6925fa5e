// Seating on a projector: a screen left on the wall re-reads its page every few seconds and
// swaps the seating in place when an organiser has seated the round again (a withdrawal, a
// late registration), so the room never reads seats that no longer exist. While the server
// cannot be reached, the last seating received stays on screen.
// Nobody scrolls a screen on the wall: the type shrinks until every table (or name) is on it.
(function () {
  "use strict";
  const wrapper = document.getElementById("seating-live");
  if (!wrapper) return;
  const interval = Math.max(5, parseInt(wrapper.dataset.interval, 10) || 10) * 1000;

  function overflows() {
    const page = document.documentElement;
    return page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth;
  }

  function fit() {
    // The stylesheet's size for this many tables if the names fit it, else the largest
    // fraction of it that fits (halving the interval: eight layouts at most). A custom
    // property on the wrapper, so the seating compared with the server's stays as it came.
    wrapper.style.removeProperty("--fit");
    if (!overflows()) return;
    let fits = 0.2, over = 1;
    for (let step = 0; step < 8; step++) {
      const scale = (fits + over) / 2;
      wrapper.style.setProperty("--fit", String(scale));
      if (overflows()) over = scale; else fits = scale;
    }
    wrapper.style.setProperty("--fit", String(fits));
  }

  async function refresh() {
    if (document.hidden) return;
    try {
      const response = await fetch(window.location.href, {cache: "no-store"});
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.getElementById("seating-live");
      if (fresh && fresh.innerHTML !== wrapper.innerHTML) {
        wrapper.innerHTML = fresh.innerHTML;
        fit();
        wrapper.dataset.refreshed = String(Date.now());
      }
    } catch (error) {
      // Offline for a moment: the next poll tries again.
    }
  }

  fit();
  window.addEventListener("resize", fit);  // e.g. the browser put in full screen (F11)
  setInterval(refresh, interval);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
})();
