// In each hand, show only the columns that mean something for its result (ron: winner,
// discarder, han, fu…), from the rules engine's own list. A column that is filled in or
// carries an error stays visible, so nothing typed is ever hidden; without JavaScript every
// column shows.
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
    function update() {
      var shown = byResult[result.value] || [];
      hand.querySelectorAll(".field[data-name]").forEach(function (field) {
        var name = field.dataset.name;
        field.hidden = name !== "result" && shown.indexOf(name) === -1 &&
          !filled(field) && !field.classList.contains("has-error");
      });
    }
    result.addEventListener("change", update);
    update();
  });
})();
