// A page left open, on the hall's projector or a player's phone (a round's seating, find my
// seat, a player's page): it re-reads itself every few seconds and swaps its live part (the
// element marked data-live) in place when it changed: a round seated again (a withdrawal, a
// late registration), so nobody reads seats that no longer exist, or a player's new result
// and next seat. A page that answers with an ETag (the player's page) is asked only whether
// it changed since (If-None-Match), and an unchanged page costs a 304. A phone also says when
// its seating changed, since its reader may have looked already. While the server cannot be
// reached, the last page received stays on screen.
// Nobody scrolls a screen on the wall: on a projector (data-fit) the type shrinks until every
// table (or name) is on it.
(function () {
  "use strict";
  const wrapper = document.querySelector("[data-live]");
  if (!wrapper) return;
  const interval = Math.max(5, parseInt(wrapper.dataset.interval, 10) || 10) * 1000;
  const projector = "fit" in wrapper.dataset;
  const changed = document.getElementById("seating-changed");
  // The version that came with the page, if it has one: its first poll asks only whether
  // it changed since.
  let etag = wrapper.dataset.etag || null;

  function overflows() {
    const page = document.documentElement;
    return page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth;
  }

  function fit() {
    if (!projector) return;
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

  // The 24-hour clock in every language, as the site's dates (English would say "6:35 PM").
  function clockTime(date) {
    return date.toLocaleTimeString(document.documentElement.lang || undefined, {
      hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    });
  }

  // The seats shown: the part marked data-seats if any (find my seat: not the round's
  // status, which changes when the round starts), else the whole seating.
  function seats(root) {
    const marked = root.querySelector("[data-seats]");
    return (marked || root).innerHTML;
  }

  async function refresh() {
    if (document.hidden) return;
    try {
      const headers = etag ? {"If-None-Match": etag} : {};
      const response = await fetch(window.location.href, {headers: headers, cache: "no-store"});
      if (response.status === 304 || !response.ok) return;
      etag = response.headers.get("ETag");
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.querySelector("[data-live]");
      if (fresh && fresh.innerHTML !== wrapper.innerHTML) {
        const moved = seats(fresh) !== seats(wrapper);
        wrapper.innerHTML = fresh.innerHTML;
        fit();
        wrapper.dataset.refreshed = String(Date.now());
        if (changed && moved) {
          // Into a live region already on the page, so that screen readers read it out.
          const notice = document.createElement("p");
          notice.className = "notice";
          notice.textContent = changed.dataset.message.replace("{time}", clockTime(new Date()));
          changed.replaceChildren(notice);
        }
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
