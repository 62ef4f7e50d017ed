/* pick: tapping a place on a picture fills a field of a move (plain JavaScript, no build step).
 *
 * An element with data-pick="<field name>" data-value="<JSON of the value>" (web/pictures.py, Picks.attrs)
 * fires document event "companion:pick" with detail {field, value, label} on a click, a tap, or Enter/Space
 * when focused; phone.js puts the value into that field of the open move form. Here: the picked place is
 * outlined (class "picked"); for a field that holds a list (data-kind="items" in the open form) every picked
 * value stays outlined, else only the last one. The marks survive the live fragment swaps (companion:state).
 */
(function () {
  "use strict";
  var picked = {};  // field -> list of value JSON strings outlined now

  function isItems(field) {
    return !!document.querySelector("[data-field='" + CSS.escape(field) + "'][data-kind='items']");
  }

  /* SVG has no z-index: a picked field moves after its like siblings (hexes), so its outline is not hidden
     under a neighbour, yet stays under what is drawn above every field (the pawns) */
  function raise(el) {
    if (!(el instanceof SVGElement) || !el.parentNode || !el.classList.length) return;
    var like = el.parentNode.querySelectorAll(":scope > ." + CSS.escape(el.classList[0]));
    var last = like[like.length - 1];
    if (!last || last === el) return;
    var focused = document.activeElement === el;
    el.parentNode.insertBefore(el, last.nextSibling);
    if (focused) el.focus({preventScroll: true});  // moving it blurred it: a keyboard keeps its place
  }

  function mark() {
    document.querySelectorAll("[data-pick].picked").forEach(function (el) {
      el.classList.remove("picked");
      el.removeAttribute("aria-pressed");
    });
    Object.keys(picked).forEach(function (field) {
      picked[field].forEach(function (raw) {
        document.querySelectorAll("[data-pick='" + CSS.escape(field) + "']").forEach(function (el) {
          if (el.getAttribute("data-value") === raw) {
            el.classList.add("picked");
            el.setAttribute("aria-pressed", "true");
            raise(el);
          }
        });
      });
    });
  }

  function fire(el) {
    var field = el.getAttribute("data-pick");
    var raw = el.getAttribute("data-value");
    var value;
    try { value = JSON.parse(raw); } catch (e) { return; }  // a broken attribute picks nothing
    var label = el.getAttribute("data-pick-label") || el.getAttribute("aria-label") || "";
    if (isItems(field)) {
      picked[field] = (picked[field] || []).concat([raw]);
    } else {
      picked[field] = [raw];
    }
    mark();
    document.dispatchEvent(new CustomEvent("companion:pick", {detail: {field: field, value: value, label: label}}));
  }

  document.addEventListener("click", function (ev) {
    var el = ev.target.closest && ev.target.closest("[data-pick]");
    if (!el) return;
    ev.preventDefault();
    fire(el);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== " " && ev.key !== "Spacebar") return;
    var el = ev.target.closest && ev.target.closest("[data-pick]");
    if (!el || el !== ev.target) return;
    ev.preventDefault();  // Space would scroll the page
    fire(el);
  });
  // a move sent (or a new state) clears what was picked for the old one; the marks are re-applied otherwise
  document.addEventListener("companion:state", function () {
    Object.keys(picked).forEach(function (field) {
      picked[field] = picked[field].filter(function (raw) {
        return document.querySelector("[data-pick='" + CSS.escape(field) + "'][data-value='" + CSS.escape(raw) + "']");
      });
    });
    mark();
  });
  // « Clear » on a form (phone.js) can say so: document.dispatchEvent(new CustomEvent("companion:unpick", {detail: {field}}))
  document.addEventListener("companion:unpick", function (ev) {
    var field = ev.detail && ev.detail.field;
    if (field) { delete picked[field]; } else { picked = {}; }
    mark();
  });
  window.companionPicked = function () { return JSON.parse(JSON.stringify(picked)); };
})();
