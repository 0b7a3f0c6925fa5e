// The referee queue sounds when a table's call is new: live_page.js swaps the list in place
// every few seconds; a call whose id the page had not shown yet plays a short tone (Web
// Audio, no sound file). Browsers let a page play sound once it has been tapped or clicked.
(function () {
  "use strict";
  const wrapper = document.querySelector("[data-live]");
  if (!wrapper) return;
  const ids = () => new Set([...wrapper.querySelectorAll("[data-call]")].map((e) => e.dataset.call));
  let known = ids();

  function chime() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    const audio = new Context();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.3, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.6);
  }

  new MutationObserver(function () {
    const now = ids();
    const fresh = [...now].some((id) => !known.has(id));
    known = now;
    if (fresh) {
      wrapper.dataset.chimed = String(Date.now());
      chime();
    }
  }).observe(wrapper, {childList: true, subtree: true});
})();
