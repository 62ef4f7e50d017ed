/* Home: abandon and delete ask first (in the page's own dialog); the preset chips fill the number
   beside them (the sand timer's seconds); another game's readings are never sent with this one. */
(function () {
  "use strict";

  /* live.js's question dialog (loaded first, on every page) */
  function ask(question, then) { window.companionConfirm(question, then); }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.dataset.ask || form.dataset.asked) return;
    ev.preventDefault();
    ask(form.dataset.ask, function () { form.dataset.asked = "1"; form.submit(); });
  });

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button[data-preset]");
    if (!b) return;
    var input = b.closest("label").querySelector("input[type=number]");
    if (input && !input.disabled) { input.value = b.dataset.preset; input.dispatchEvent(new Event("change")); }
  });

  var gameSelect = document.getElementById("start-game");
  var box = document.getElementById("start-options");
  function only() {  /* live.js switches the selects; the number inputs and the JSON box follow here */
    if (box && box.dataset.for && box.dataset.for !== gameSelect.value) { box.value = "{}"; box.dataset.for = ""; }
    document.querySelectorAll("[data-options-for]").forEach(function (fs) {
      var mine = fs.dataset.optionsFor === gameSelect.value;
      fs.querySelectorAll("input").forEach(function (i) { i.disabled = !mine; });
    });
  }
  if (gameSelect) gameSelect.addEventListener("change", only);
})();
