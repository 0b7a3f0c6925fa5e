// Round clock: the server (database) holds the state; this page polls it every few seconds
// and counts down locally in between, from the remaining time the server reported (so a
// wrong clock on this computer does not matter). At zero it shows "Time!" and beeps. Once
// the organiser has finished the round (or locked its results) it stops and says the round
// is over, on the next poll: the screens in the hall need no reload. Tables the head referee
// gave extra time are listed under it, each with its own end.
(function () {
  "use strict";
  const root = document.getElementById("round-clock");
  if (!root) return;
  const display = root.querySelector(".clock-time");
  const statusLine = root.querySelector(".clock-status");
  const soundButton = root.querySelector(".clock-sound");
  const endsLine = root.querySelector(".clock-ends");
  const endsTime = endsLine.querySelector("time");
  // The hall's hour, not this device's: a phone set to another zone shows the same end.
  const hourFormat = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    timeZone: root.dataset.timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  });
  const tablesBox = root.querySelector(".clock-tables");
  const tablesList = tablesBox.querySelector("ul");
  const POLL_MS = 3000;
  let remaining = parseFloat(root.dataset.remaining);
  let running = root.dataset.running === "1";
  let endsAt = root.dataset.endsAt;
  let roundOver = root.dataset.over === "1";
  let receivedAt = performance.now();
  let audio = null;
  let rang = remaining <= 0;

  function secondsLeft() {
    return running ? remaining - (performance.now() - receivedAt) / 1000 : remaining;
  }

  function format(seconds) {
    // Minutes and seconds, minutes past 60 included: a round is read as "74:59".
    const whole = Math.ceil(Math.max(seconds, 0));
    return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  }

  function beep() {
    if (!audio) return;
    const start = audio.currentTime;
    [0, 0.6, 1.2].forEach(function (offset) {
      const oscillator = audio.createOscillator(), gain = audio.createGain();
      oscillator.type = "square";
      oscillator.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.6, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.5);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + 0.55);
    });
  }

  function say(text) {
    // Only a change: the line is read out by screen readers (aria-live), and render() runs
    // four times a second.
    if (statusLine.textContent !== text) statusLine.textContent = text;
  }

  function showEnd(over) {
    // Only while it runs: paused, the end moves with every second of the pause.
    const shown = running && !over && Boolean(endsAt);
    endsLine.hidden = !shown;
    if (shown && endsTime.dateTime !== endsAt) {
      endsTime.dateTime = endsAt;
      endsTime.textContent = hourFormat.format(new Date(endsAt));
    }
  }

  function renderOver() {
    display.textContent = root.dataset.overLabel;
    endsLine.hidden = true;
    root.classList.add("over");
    root.classList.remove("time-up", "paused", "last-minutes");
    if (!root.classList.contains("offline")) {
      statusLine.classList.add("visually-hidden");  // the wall shows it once, in big
      say(root.dataset.overSaid);
    }
  }

  function render() {
    if (roundOver) { renderOver(); return; }
    root.classList.remove("over");
    const left = secondsLeft();
    const over = left <= 0;
    showEnd(over);
    display.textContent = over ? root.dataset.timeUp : format(left);
    root.classList.toggle("time-up", over);
    root.classList.toggle("paused", !running && !over);
    root.classList.toggle("last-minutes", !over && left <= 300);
    if (over && !rang) { rang = true; beep(); }
    if (!over) rang = false;
    if (!root.classList.contains("offline")) {
      // At zero the big "Time!" is the timer's, which is not read out: the status line says
      // it to screen readers, unseen (the wall shows it once).
      statusLine.classList.toggle("visually-hidden", over);
      say(over ? root.dataset.timeUpSaid : (running ? root.dataset.runningLabel : root.dataset.paused));
    }
  }

  function showTables(tables) {
    // "Table 3 · +10 min · ends at 15:47 · one more hand"; the end only while it runs.
    tablesBox.hidden = tables.length === 0;
    tablesList.replaceChildren(...tables.map(function (table) {
      const parts = [root.dataset.tableLabel + " " + table.table];
      if (table.extra_minutes) parts.push("+" + table.extra_minutes + " min");
      if (table.ends_at && !roundOver) {
        parts.push(root.dataset.tableEnds + " " + hourFormat.format(new Date(table.ends_at)));
      }
      if (table.one_more_hand) parts.push(root.dataset.oneMoreHand);
      const item = document.createElement("li");
      item.dataset.table = table.table;
      item.textContent = parts.join(" · ");
      return item;
    }));
  }

  async function poll() {
    try {
      const response = await fetch(root.dataset.url, {cache: "no-store"});
      if (!response.ok) throw new Error(String(response.status));
      const state = await response.json();
      remaining = state.remaining_seconds;
      running = state.running;
      endsAt = state.ends_at || "";
      roundOver = state.over;
      showTables(state.tables);
      receivedAt = performance.now();
      root.classList.remove("offline");
      root.dataset.polled = String(Date.now());
    } catch (error) {
      root.classList.add("offline");
      statusLine.classList.remove("visually-hidden");
      say(root.dataset.offline);
    }
    render();
  }

  soundButton.addEventListener("click", function () {
    // Browsers only allow sound after a click on the page: one click arms the end signal.
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume();
    soundButton.textContent = soundButton.dataset.on;
    soundButton.setAttribute("aria-pressed", "true");
  });

  showTables(JSON.parse(document.getElementById("clock-tables-state").textContent));
  render();
  setInterval(render, 250);
  setInterval(poll, POLL_MS);
  poll();
})();
