// In each hand, show only the columns that mean something for its result (ron: winner,
// discarder, han, fu…), from the rules engine's own list. Where several players may win on
// one discard, a ron has the second winner's columns, and the third winner's once a second
// winner is chosen. A column that is filled in or carries an error stays visible, so nothing
// typed is ever hidden; without JavaScript every column shows.
(function () {
  "use strict";
  var data = document.getElementById("hand-fields");
  if (!data) { return; }
  var byResult = JSON.parse(data.textContent);
  function filled(field) {
    return Array.prototype.some.call(field.querySelectorAll("input, select"), function (input) {
      return input.type === "checkbox" ? input.checked : input.value !== "";
    });
  }
  document.querySelectorAll(".hand").forEach(function (hand) {
    var result = hand.querySelector("select[name$='-result']");
    if (!result) { return; }
    function chosen(name) {
      var select = hand.querySelector("select[name$='-" + name + "']");
      return select !== null && select.value !== "";
    }
    function wanted(name, shown) {
      if (shown.indexOf(name) === -1) { return false; }
      // winner_3, han_3…: the third winner's columns follow a second winner
      var number = /_(\d)$/.exec(name);
      return !number || number[1] === "2" || chosen("winner_" + (number[1] - 1));
    }
    function update() {
      var shown = byResult[result.value] || [];
      hand.querySelectorAll(".field[data-name]").forEach(function (field) {
        var name = field.dataset.name;
        field.hidden = name !== "result" && !wanted(name, shown) &&
          !filled(field) && !field.classList.contains("has-error");
      });
    }
    result.addEventListener("change", update);
    hand.querySelectorAll("select[name$='-winner_2']").forEach(function (select) {
      select.addEventListener("change", update);
    });
    update();
  });
})();
