/* The tablet's privacy screen: a secret move (a vote) of a seat played on the tablet is cast where
   nobody at the table sees it. « Pass the tablet to Dan » covers the page; Dan shows his choice,
   makes it and sends it (live.js asks and sends as for any move); then the screen goes, and with
   it every trace of the choice: the forms live only inside the screen, copied from a <template>
   that holds the choices offered (public) and never the one made. Plain JavaScript, no build step. */
(function () {
  "use strict";
  var screen = null;

  function close() {
    if (screen) { screen.remove(); screen = null; }
    var q = document.querySelector("#confirm .q");  /* the question named the choice */
    if (q) q.textContent = "";
  }

  function button(text, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls || "";
    b.textContent = text;
    return b;
  }

  function open(from) {
    close();
    var seat = from.dataset.privateOpen;
    var tpl = document.querySelector('template.private-forms[data-seat="' + CSS.escape(seat) + '"]');
    if (!tpl) return;
    screen = document.createElement("div");
    screen.className = "privacy";
    screen.dataset.seat = seat;
    screen.dataset.done = from.dataset.done || "";
    screen.setAttribute("role", "dialog");
    screen.setAttribute("aria-modal", "true");
    var title = document.createElement("h2");
    title.textContent = from.dataset.title || seat;
    var show = button(from.dataset.show || seat, "primary big show");
    var box = document.createElement("div");
    box.className = "privacy-forms";
    var cancel = button(from.dataset.cancel || "Cancel", "cancel");
    show.addEventListener("click", function () {
      box.appendChild(tpl.content.cloneNode(true));
      show.remove();
      var first = box.querySelector("button, input, select");
      if (first) first.focus();
    });
    cancel.addEventListener("click", close);
    screen.append(title, show, box, cancel);
    document.body.appendChild(screen);
    show.focus();
  }

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-private-open]");
    if (b) { ev.preventDefault(); open(b); }
  });
  document.addEventListener("keydown", function (ev) { if (screen && ev.key === "Escape") close(); });

  /* sent: the screen hides it again */
  document.addEventListener("companion:acted", function (ev) {
    var d = ev.detail || {};
    if (!screen || !d.ok || d.player !== screen.dataset.seat) return;
    var said = screen.dataset.done;
    close();
    if (said && window.companionToast) window.companionToast(said, false);
  });

  /* the seat's secret move is no longer asked (cast elsewhere, undone): nothing to hide any more */
  document.addEventListener("companion:state", function () {
    if (screen && !document.querySelector('template.private-forms[data-seat="' + CSS.escape(screen.dataset.seat) + '"]')) close();
  });
})();
