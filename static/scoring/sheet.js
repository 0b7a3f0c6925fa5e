// Running total of the four final points while typing, compared with what they must add up
// to (4 × start points − 1 000 per riichi stick left). The server checks again on "Check";
// without JavaScript the page works the same, minus this hint.
(function () {
  "use strict";
  var form = document.querySelector("form.sheet-form[data-start-points]");
  if (!form) { return; }
  var output = form.querySelector(".points-sum");
  var fields = ["E", "S", "W", "N"].map(function (wind) {
    return form.querySelector("[name='" + wind + "_points']");
  });
  var sticks = form.querySelector("[name='riichi_sticks_left']");
  if (!output || fields.indexOf(null) !== -1) { return; }
  var start = parseInt(form.dataset.startPoints, 10);
  // The server's thousands separator, so the hint reads like the sheet and its messages
  // (the browser's Intl writes French with another space than Django).
  var separator = form.dataset.thousandSeparator || "";
  function format(number) {
    return String(number).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  }
  function update() {
    // "25.000" is 25 000 at a table, not 25: the server refuses a dot or comma, and so does
    // the hint rather than add up a number nobody meant.
    var separated = fields.some(function (field) { return /[.,]/.test(field.value); });
    var total = 0;
    fields.forEach(function (field) { total += parseInt(field.value, 10) || 0; });
    var expected = 4 * start - 1000 * (parseInt(sticks && sticks.value, 10) || 0);
    output.textContent = separated
      ? form.dataset.separatorMessage
      : format(total) + " / " + format(expected);
    output.classList.toggle("status-confirmed", !separated && total === expected);
    output.classList.toggle("status-disputed", separated || total !== expected);
  }
  fields.concat([sticks]).forEach(function (field) {
    if (field) { field.addEventListener("input", update); }
  });
  output.parentNode.hidden = false;
  update();
})();
