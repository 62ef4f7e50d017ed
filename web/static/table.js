/* table: plain JavaScript, no build step (live.js carries the shared helpers).

   What changed since the previous update flashes briefly, so that a glance at the tablet shows what
   the last move did: every figure (a leaf element's text) inside a [data-figs="scope"] block that
   differs from the last update, and the story's lines newer than the last update. The first
   rendering flashes nothing. Hooked on live.js's `companion:state`, fired after every swap. */
(function () {
  "use strict";
  var figures = null;  /* key -> text at the previous update */
  var lastSeq = null;  /* the newest story line at the previous update */

  function leaves(scope) {
    /* the text leaves of a block, each keyed by its path of tags and classes (stable when a row grows) */
    var out = [], counts = {};
    scope.querySelectorAll("*").forEach(function (el) {
      if (el.children.length || !(el instanceof HTMLElement)) return;
      var text = (el.textContent || "").trim();
      if (!text) return;
      var path = [], node = el;
      while (node && node !== scope) {
        path.unshift(node.tagName + "." + (node.getAttribute("class") || "").replace(/\b(changed|fresh)\b/g, "").trim());
        node = node.parentElement;
      }
      var key = path.join(">");
      counts[key] = (counts[key] || 0) + 1;
      out.push({key: key + "#" + counts[key], el: el, text: text});
    });
    return out;
  }

  function flash(el, cls) {
    el.classList.remove(cls);
    void el.offsetWidth;  /* restart the animation when the same figure changes twice running */
    el.classList.add(cls);
  }

  function mark() {
    var now = {};
    document.querySelectorAll("[data-figs]").forEach(function (scope) {
      var name = scope.getAttribute("data-figs");
      leaves(scope).forEach(function (leaf) {
        var key = name + "|" + leaf.key;
        now[key] = leaf.text;
        if (figures && key in figures && figures[key] !== leaf.text) flash(leaf.el, "changed");
      });
    });
    figures = now;
    var newest = lastSeq;
    document.querySelectorAll(".story li[data-seq]").forEach(function (li) {
      var seq = Number(li.getAttribute("data-seq"));
      if (lastSeq !== null && seq > lastSeq) li.classList.add("fresh");
      if (newest === null || seq > newest) newest = seq;
    });
    lastSeq = newest;
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
  document.addEventListener("companion:state", mark);
})();

/* The join QR is for a game still being played: hidden once it is over, back if an undo reopens it; and
   its QR, code and link go as soon as joining is closed (the actions fragment then offers to open it again
   with a new code, which the page shows after its reload). */
document.addEventListener("companion:state", function (ev) {
  var box = document.querySelector(".joinbox");
  var state = ev.detail && ev.detail.state;
  if (box && state) box.hidden = !!state.over;
  if (!box) return;
  var closed = !!document.querySelector("form.joining button[name='open'][value='1']");
  var open = box.querySelector(".join-open"), said = box.querySelector(".join-closed");
  if (closed && open) open.hidden = true;
  if (said) said.hidden = !closed;
});
