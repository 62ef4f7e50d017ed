/* seats: the table lets a phone take a seat the tablet has been playing (its consent). */
(function () {
  "use strict";
  var game = document.body.dataset.game;
  /* a seat as one URL segment: a name of dots is ~N, a name starting with ~ gets one more (web/joining.py) */
  function seatSegment(name) {
    if (/^\.+$/.test(name)) return "~" + name.length;
    return encodeURIComponent(name.charAt(0) === "~" ? "~" + name : name);
  }
  window.companionSeatSegment = seatSegment;
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button[data-open-seat]");
    if (!b || !game || !window.companionPost) return;
    ev.preventDefault();
    b.disabled = true;
    window.companionPost("/api/games/" + encodeURIComponent(game) + "/seats/" + seatSegment(b.dataset.openSeat) + "/open")
      .then(function () { window.companionToast("✓ " + b.textContent.trim() + " — " + b.dataset.openSeat, false); })
      .catch(function (e) { window.companionToast(e.message, true); b.disabled = false; });
  });
})();
