/* The simulation panel: buttons, tags on reader points, and the live OLED mirror. */
(function () {
  "use strict";
  var img = document.getElementById("oled");
  if (!img) return;
  var serialEl = document.getElementById("oled-serial");
  var post = window.companionPost, toast = window.companionToast;

  function show(data) {
    img.src = data.oled;
    img.dataset.serial = data.serial;
    if (serialEl) serialEl.textContent = data.serial;
    document.querySelectorAll("button.point").forEach(function (b) {
      var uids = data.readers[b.dataset.point] || [];
      b.classList.toggle("on", uids.length > 0);
      b.querySelector(".uid").textContent = uids[0] || "";
    });
  }

  var source = null, retries = 0;
  function connect() {
    source = new EventSource("/sim/events");
    source.addEventListener("sim", function (ev) { retries = 0; show(JSON.parse(ev.data)); });
    source.onerror = function () {
      source.close(); retries += 1;
      setTimeout(connect, Math.min(5000, 300 * Math.pow(2, Math.min(retries, 5))));
    };
  }

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button");
    if (!b) return;
    var uid = (document.getElementById("tag-uid") || {}).value;
    var req = null;
    if (b.dataset.press) req = post("/sim/press", {button: b.dataset.press, hold: !!b.dataset.hold});
    else if (b.dataset.turn) req = post("/sim/turn", {delta: parseInt(b.dataset.turn, 10)});
    else if (b.dataset.point) {
      var on = b.querySelector(".uid").textContent;
      req = on ? post("/sim/tag", {point: b.dataset.point, uid: on, present: false})
               : post("/sim/tag", {point: b.dataset.point, uid: uid, present: true});
    }
    if (!req) return;
    ev.preventDefault();
    req.then(show).catch(function (e) { toast(e.message, true); });
  });
  document.getElementById("tag-form").addEventListener("submit", function (ev) { ev.preventDefault(); });
  var pick = document.getElementById("tag-pick");
  if (pick) pick.addEventListener("change", function () {
    var box = document.getElementById("tag-uid");
    box.value = pick.value;
    if (!pick.value) box.focus();
  });
  connect();
})();
