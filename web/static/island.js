/* The island as built: tap a hex, then a colour chip and a number chip. After every tap the cells go
   into the form's hidden "cells" field and the server asks the rules (one sentence back). */
(function () {
  "use strict";
  var form = document.getElementById("island-form");
  if (!form) return;
  var hidden = document.getElementById("island-cells");
  var statusEl = document.getElementById("island-status");
  var countEl = document.getElementById("island-count");
  var whichEl = document.getElementById("island-which");
  var cells = JSON.parse(hidden.value || "[]");
  /* what was tapped survives a reload (the tablet slept, the page was left), kept in this tab */
  var key = "companion-island:" + form.querySelector("input[name=game]").value;
  var store = null;
  try { store = window.sessionStorage; } catch (e) { store = null; }
  function blank(list) { return list.every(function (c) { return !c.colour && !c.number; }); }
  if (store && blank(cells)) {
    try {
      var kept = JSON.parse(store.getItem(key) || "null");
      if (kept && kept.length === cells.length && !blank(kept)) {
        kept.forEach(function (c, i) { cells[i].colour = c.colour || null; cells[i].number = c.number || null; });
        hidden.value = JSON.stringify(cells);
      }
    } catch (e) { /* nothing kept */ }
  }
  var groups = Array.prototype.slice.call(document.querySelectorAll("#island-svg g.cell"));
  var colours = {};
  document.querySelectorAll("button[data-colour]").forEach(function (b) {
    colours[b.dataset.colour] = {fill: b.dataset.fill, ink: b.dataset.ink, word: b.textContent.trim()};
  });
  var marks = document.getElementById("island-marks");
  var selected = -1, asking = null, again = false;

  function complete(c) { return c.colour && c.number; }

  function draw(i) {
    var c = cells[i], g = groups[i], col = colours[c.colour];
    g.querySelector("polygon").setAttribute("fill", col ? col.fill : "#fffdf8");
    var number = g.querySelector("text");
    number.setAttribute("fill", col ? col.ink : "#1d2a26");
    number.textContent = c.number || "";
    var shape = g.querySelector("use");  /* the colour's shape, as on the island picture */
    if (col) shape.setAttribute("href", "#shape-" + c.colour); else shape.removeAttribute("href");
    g.classList.toggle("done", !!complete(c));
    g.setAttribute("aria-label", [c.number || "?", col ? col.word : "?"].join(" · "));
  }

  function usedNumbers() {
    var used = {};
    cells.forEach(function (c, i) { if (c.number) (used[c.number] = used[c.number] || []).push(i); });
    return used;
  }

  function chips() {
    var used = usedNumbers(), mine = selected >= 0 ? cells[selected] : null;
    document.querySelectorAll("button[data-number]").forEach(function (b) {
      var n = Number(b.dataset.number), on = used[n] || [];
      b.classList.toggle("on", !!mine && mine.number === n);
      b.setAttribute("aria-pressed", String(!!mine && mine.number === n));
      b.classList.toggle("used", on.length > 0 && !(mine && mine.number === n && on.length === 1));
      b.classList.toggle("twice", on.length > 1);
    });
    document.querySelectorAll("button[data-colour]").forEach(function (b) {
      b.classList.toggle("on", !!mine && mine.colour === b.dataset.colour);
      b.setAttribute("aria-pressed", String(!!mine && mine.colour === b.dataset.colour));
    });
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    groups.forEach(function (g, i) {  /* outlines drawn above every hex, so no neighbour covers them */
      var twice = !!cells[i].number && used[cells[i].number].length > 1;  /* both hexes of a slip */
      g.classList.toggle("sel", i === selected);
      g.classList.toggle("twice", twice);
      if (twice || i === selected) {
        var outline = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
        outline.setAttribute("points", g.querySelector("polygon").getAttribute("points"));
        outline.setAttribute("class", i === selected ? "mark-sel" : "mark-twice");
        marks.appendChild(outline);
      }
    });
    whichEl.textContent = mine ? (mine.number ? "#" + mine.number : "?") + (mine.colour ? " · " + colours[mine.colour].word : "") : whichEl.dataset.none || whichEl.textContent;
  }

  function select(i) {
    selected = i;
    chips();
  }

  function next() {  /* the next hex still without colour or number, after the current one */
    for (var k = 1; k <= cells.length; k++) {
      var j = (selected + k) % cells.length;
      if (!complete(cells[j])) return j;
    }
    return selected;
  }

  function changed(advance) {
    hidden.value = JSON.stringify(cells);
    if (store) { try { store.setItem(key, hidden.value); } catch (e) { /* full: the form still holds it */ } }
    if (advance && selected >= 0 && complete(cells[selected])) selected = next();
    chips();
    ask();
  }

  function ask() {  /* one question at a time; the latest cells win */
    if (asking) { again = true; return; }
    asking = window.companionPost(form.dataset.check, {cells: cells}).then(function (j) {
      statusEl.textContent = j.text;
      statusEl.className = "island-status " + (j.ok ? "ok" : "bad");
      countEl.textContent = j.entered;
    }).catch(function (e) {
      statusEl.textContent = e.message;
      statusEl.className = "island-status bad";
    }).finally(function () {
      asking = null;
      if (again) { again = false; ask(); }
    });
  }

  whichEl.dataset.none = whichEl.textContent;
  groups.forEach(function (g, i) {
    g.addEventListener("click", function () { select(i); });
    g.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(i); }
    });
  });
  form.addEventListener("click", function (ev) {
    var b = ev.target.closest("button");
    if (!b || b.type === "submit") return;
    if (selected < 0) { if (b.dataset.colour || b.dataset.number) select(next()); }
    if (b.dataset.colour) { cells[selected].colour = b.dataset.colour; draw(selected); changed(true); }
    else if (b.dataset.number) { cells[selected].number = Number(b.dataset.number); draw(selected); changed(true); }
    else if (b.id === "island-clear" && selected >= 0) {
      cells[selected].colour = null; cells[selected].number = null; draw(selected); changed(false);
    } else if (b.id === "island-empty") {  /* a second tap empties every hex */
      if (!b.dataset.armed) {
        b.dataset.armed = "1"; b.dataset.label = b.textContent; b.textContent = b.dataset.again;
        setTimeout(function () { if (b.dataset.armed) { delete b.dataset.armed; b.textContent = b.dataset.label; } }, 4000);
        return;
      }
      delete b.dataset.armed; b.textContent = b.dataset.label;
      cells.forEach(function (c, i) { c.colour = null; c.number = null; draw(i); });
      selected = 0;
      changed(false);
    }
  });
  /* kept after Start too: the island stays built in its frame for the next game, and a card that
     refused the write (503) loses nothing; « Empty the island » forgets it */
  form.addEventListener("submit", function () { hidden.value = JSON.stringify(cells); });
  cells.forEach(function (c, i) { draw(i); });
  select(cells.some(complete) ? next() : 0);
  if (!blank(cells)) ask();  /* the rules' word on what came back from this tab's memory */
})();
