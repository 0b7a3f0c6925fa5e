// Live rankings: poll the ranking every few seconds and redraw its rows when it changed.
// The poll is the rows as compact JSON (scoring.tables.RankingTable.live), a tenth of the
// table's HTML; the request carries the last ETag, so an unchanged ranking costs a 304.
// Only the rows are redrawn: the page's scroll position and the search box are kept. When
// the table's head changed (a round no longer provisional, a legend), the whole table is
// fetched as HTML once. Without the script, the page's own table is the ranking.
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

  function scoreCell(cell, value) {
    if (value === null) {
      cell.textContent = "\u2014";  // as the table's empty cells
      return;
    }
    const text = Array.isArray(value) ? value[0] : value;
    const span = document.createElement("span");
    span.className = text.charAt(0) === "\u2212" ? "score negative" : "score";
    span.title = Array.isArray(value) ? value[1] : "";
    span.textContent = text;
    cell.appendChild(span);
  }

  function placeCell(cell, place, decidedBy, labels) {
    if (place === null) {
      const none = document.createElement("span");
      none.className = "muted";
      none.title = labels.no_place;
      none.textContent = labels.no_place_mark;
      cell.appendChild(none);
      return;
    }
    cell.textContent = place;
    if (!decidedBy) return;
    const said = labels.decided[decidedBy] || "";
    const mark = document.createElement("sup");
    mark.className = "tie-break";
    mark.title = said;
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = labels.mark;
    const spoken = document.createElement("span");
    spoken.className = "visually-hidden";
    spoken.textContent = " (" + said + ")";
    cell.append(mark, spoken);
  }

  function nameCell(cell, id, name, withdrawn, data) {
    const link = document.createElement("a");
    link.href = data.player_url.replace(/0\/$/, id + "/");
    const isolated = document.createElement("bdi");
    isolated.textContent = name;
    link.appendChild(isolated);
    cell.appendChild(link);
    if (withdrawn) {
      const note = document.createElement("small");
      note.className = "muted";
      note.textContent = data.labels.withdrawn;
      cell.append(" ", note);
    }
  }

  function countryCell(cell, code, country) {
    if (!code) {
      cell.textContent = "\u2014";
      return;
    }
    const span = document.createElement("span");
    span.title = country;
    span.textContent = code;
    cell.appendChild(span);
  }

  // One row: [id, place, tie-break, name, withdrawn, country, country's name, club, search
  // text, then the score columns in the table's order].
  function drawRow(row, index, data) {
    const tr = document.createElement("tr");
    tr.dataset.registration = row[0];
    tr.dataset.search = row[8];
    tr.className = index % 2 ? "odd" : "even";
    const cells = data.classes.map(function (classes) {
      const cell = document.createElement("td");
      if (classes) cell.className = classes;
      tr.appendChild(cell);
      return cell;
    });
    placeCell(cells[0], row[1], row[2], data.labels);
    nameCell(cells[1], row[0], row[3], row[4], data);
    countryCell(cells[2], row[5], row[6]);
    cells[3].textContent = row[7] || "\u2014";
    row.slice(9).forEach(function (value, offset) { scoreCell(cells[4 + offset], value); });
    return tr;
  }

  function drawRows(data) {
    const body = wrapper.querySelector("table.ranking tbody");
    const rows = document.createDocumentFragment();
    data.rows.forEach(function (row, index) { rows.appendChild(drawRow(row, index, data)); });
    body.replaceChildren(rows);
  }

  async function drawTable() {
    const response = await fetch(wrapper.dataset.tableUrl, {cache: "no-store"});
    if (!response.ok) throw new Error(String(response.status));
    wrapper.innerHTML = await response.text();
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
      const data = await response.json();
      const container = wrapper.querySelector(".table-container");
      const scrollLeft = container ? container.scrollLeft : 0;
      // A keyboard user on a player's link or a column's sort link stays on it: the rows
      // are new, and the focus would otherwise fall back to the top of the page.
      const focused = wrapper.contains(document.activeElement) ?
        document.activeElement.getAttribute("href") : null;
      const table = wrapper.querySelector("table.ranking");
      if (table && table.dataset.head === data.head) {
        drawRows(data);
      } else {
        await drawTable();
      }
      etag = response.headers.get("ETag");
      const again = wrapper.querySelector(".table-container");
      if (again) again.scrollLeft = scrollLeft;
      const link = focused && wrapper.querySelector('a[href="' + CSS.escape(focused) + '"]');
      if (link) link.focus({preventScroll: true});
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
