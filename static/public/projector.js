// Seating on a projector: a screen left on the wall re-reads its page every few seconds and
// swaps the seating in place when an organiser has seated the round again (a withdrawal, a
// late registration), so the room never reads seats that no longer exist. While the server
// cannot be reached, the last seating received stays on screen.
(function () {
  "use strict";
  const wrapper = document.getElementById("seating-live");
  if (!wrapper) return;
  const interval = Math.max(5, parseInt(wrapper.dataset.interval, 10) || 10) * 1000;

  async function refresh() {
    if (document.hidden) return;
    try {
      const response = await fetch(window.location.href, {cache: "no-store"});
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.getElementById("seating-live");
      if (fresh && fresh.innerHTML !== wrapper.innerHTML) {
        wrapper.innerHTML = fresh.innerHTML;
        wrapper.dataset.refreshed = String(Date.now());
      }
    } catch (error) {
      // Offline for a moment: the next poll tries again.
    }
  }

  setInterval(refresh, interval);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
})();
