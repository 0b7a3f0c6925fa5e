// Live rankings: poll the table every few seconds and swap it in place when it changed.
// The request carries the last ETag, so an unchanged ranking costs a 304 and nothing else.
// Only the table is replaced: the page's scroll position and the search box are kept.
(function () {
  "use strict";
  const wrapper = document.getElementById("ranking");
  if (!wrapper) return;
  const status = document.getElementById("ranking-status");
  const search = document.getElementById("ranking-search");
  const interval = Math.max(5, parseInt(wrapper.dataset.interval, 10) || 10) * 1000;
  // The ranking came with the page: its first poll asks only whether it changed since.
  let etag = wrapper.dataset.etag || null;

  function say(text) {
    // Only a change: the line is read out by screen readers (aria-live).
    if (status && status.textContent !== text) status.textContent = text;
  }

  function fold(text) {
    // The letters names.UNACCENTED maps, so "Yılmaz" typed with its ı finds the row too.
    const unaccented = {
      "ı": "i", "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ð": "d", "ł": "l", "þ": "th",
    };
    return text.toLocaleLowerCase().replace(/[ıøæœßđðłþ]/g, function (c) { return unaccented[c]; })
      .replace(/[\u2019\u2018\u02bc\u0060]/g, "'")  // names.APOSTROPHES
      .normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  }

  function applyFilter() {
    const words = fold(search ? search.value : "").split(/\s+/).filter(Boolean);
    wrapper.querySelectorAll("tbody tr[data-search]").forEach(function (row) {
      const haystack = row.dataset.search || "";
      row.hidden = !words.every(function (word) { return haystack.includes(word); });
    });
  }

  // The 24-hour clock in every language, as the site's dates (English would say "6:35 PM").
  function clockTime(date) {
    return date.toLocaleTimeString(document.documentElement.lang || undefined, {
      hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
    });
  }

  async function refresh() {
    if (document.hidden) return;
    const headers = {"X-Requested-With": "fetch"};
    if (etag) headers["If-None-Match"] = etag;
    try {
      const response = await fetch(wrapper.dataset.url, {headers: headers, cache: "no-store"});
      if (response.status === 304) {
        say(received);
        return;
      }
      if (!response.ok) throw new Error(String(response.status));
      const html = await response.text();
      etag = response.headers.get("ETag");
      const scrollLeft = (wrapper.querySelector(".table-container") || {}).scrollLeft || 0;
      // A keyboard user on a player's link or a column's sort link stays on it: the table
      // is new, and the focus would otherwise fall back to the top of the page.
      const focused = wrapper.contains(document.activeElement) ?
        document.activeElement.getAttribute("href") : null;
      wrapper.innerHTML = html;
      const container = wrapper.querySelector(".table-container");
      if (container) container.scrollLeft = scrollLeft;
      const again = focused && wrapper.querySelector('a[href="' + CSS.escape(focused) + '"]');
      if (again) again.focus({preventScroll: true});
      applyFilter();
      wrapper.dataset.refreshed = String(Date.now());
      if (status) received = status.dataset.updated + " " + clockTime(new Date());
      say(received);
    } catch (error) {
      if (status) say(status.dataset.offline);
    }
  }

  // What the status line said of the last ranking received: back as soon as the server
  // answers again, even with "nothing changed" (304), so "Offline" does not stay.
  let received = status ? status.dataset.updated + " " + clockTime(new Date()) : "";

  if (search) search.addEventListener("input", applyFilter);
  applyFilter();
  // Every round locked: the ranking is final, nothing to poll for.
  if ("final" in wrapper.dataset) return;
  refresh();
  setInterval(refresh, interval);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
})();
