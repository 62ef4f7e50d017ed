/* Tag enrollment: follow the scan pad, then enroll the tag as what the player says it is. */
(function () {
  "use strict";
  var form = document.getElementById("enroll");
  if (!form) return;
  var uid = document.getElementById("enroll-uid");
  var post = window.companionPost, toast = window.companionToast;

  setInterval(function () {
    if (document.activeElement === uid) return;
    fetch("/tags/last", {credentials: "same-origin"}).then(function (r) { return r.json(); })
      .then(function (j) { if (j.uid && j.uid !== uid.value) uid.value = j.uid; }).catch(function () {});
  }, 1000);

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    post("/tags/enroll", {uid: uid.value.trim(), kind: document.getElementById("enroll-kind").value,
                          value: document.getElementById("enroll-value").value.trim()})
      .then(function () { location.reload(); })
      .catch(function (e) { toast(e.message, true); });
  });
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-forget]");
    if (!b) return;
    post("/tags/forget", {uid: b.dataset.forget}).then(function () { location.reload(); })
      .catch(function (e) { toast(e.message, true); });
  });
})();
