/* phone: the inputs people like - chips to tap, lists of chips, − / + steppers, a picture to tap -
   and the sand timer's alarm. Plain JavaScript, no build step; live.js carries the shared helpers
   (it reads the forms back, asks, sends) and calls window.companionCheck / companionItems.
   Runs on the tablet too: lists, steppers and taps on a picture work the same there. */
(function () {
  "use strict";
  var lastForm = null;  /* the move form the player is working in (a tap on the picture goes there) */

  function fire(el) { el.dispatchEvent(new Event("change", {bubbles: true})); }
  function fmt(text, n) { return (text || "{n}").replace("{n}", n); }
  function say(text, bad) { if (window.companionToast) window.companionToast(text, bad); }

  /* -- a row of chips: one value, kept in the hidden input beside them -- */
  function choose(chip, submit) {
    var box = chip.closest(".fld"), input = box && box.querySelector("input[type=hidden][data-field]");
    if (!input) return;
    /* a toggle (two cards as a wildcard): tapped again, it goes back to the usual */
    input.value = chip.dataset.off !== undefined && input.value === chip.dataset.value ? chip.dataset.off : chip.dataset.value;
    input.dataset.touched = "1";
    fire(input);  /* live.js opens the choice's own fields */
    sync(box);
    var form = chip.closest("form.act");
    if (submit && form && form.hasAttribute("data-tap") && chip.dataset.off === undefined && !check(form)) form.requestSubmit();
  }

  function sync(box) {
    var input = box.querySelector("input[type=hidden][data-field]");
    if (!input) return;
    box.querySelectorAll(".chip[data-value]").forEach(function (c) {
      var on = c.dataset.value === input.value;
      c.classList.toggle("on", on);
      c.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) { var more = c.closest("details.more-chips"); if (more) more.open = true; }
    });
    var pv = box.querySelector(".chip-preview"), chosen = box.querySelector(".chip.on");
    if (pv) pv.textContent = chosen ? chosen.dataset.label + (chosen.dataset.preview ? " — " + chosen.dataset.preview : "") : "";
  }

  /* what is still to choose before the form can be sent ("" : nothing) */
  function check(form) {
    var missing = "";
    form.querySelectorAll("[data-field]").forEach(function (el) {
      if (missing || el.closest(".sub[hidden]")) return;
      var box = el.closest(".fld"), name = box ? box.dataset.label || "" : "";
      if (el.type === "hidden" && el.hasAttribute("data-required") && el.value === "") missing = name;
      if (el.dataset.kind === "items" && picked(el).length < parseInt(el.dataset.min || "0", 10)) missing = name;
    });
    return missing ? fmt(form.dataset.chooseText || "Choose: {n}", missing) : "";
  }
  window.companionCheck = check;

  /* -- a list of chips (dice, turtles drawn): tap adds, tap on a chosen one removes -- */
  function picked(items) { return Array.prototype.map.call(items.querySelectorAll(".picked [data-value]"), function (c) { return c.dataset.value; }); }

  function allowed(items, value, list) {
    var max = parseInt(items.dataset.max || "99", 10);
    if (list.length >= max) return false;
    var n = list.filter(function (v) { return v === value; }).length;
    if (items.hasAttribute("data-distinct") && n) return false;
    var limits = JSON.parse(items.dataset.limits || "{}");
    return !(value in limits) || n < limits[value];
  }

  function add(items, value) {
    var list = picked(items);
    if (!allowed(items, value, list)) return false;
    var from = items.querySelector('.palette .chip[data-value="' + CSS.escape(value) + '"]');
    var chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip picked-chip";
    chip.dataset.value = value;
    chip.dataset.label = from ? from.dataset.label : value;
    if (from && from.dataset.colour) chip.dataset.colour = from.dataset.colour;
    chip.textContent = chip.dataset.label + " ×";
    chip.setAttribute("aria-label", (items.querySelector(".picked").dataset.removeText || "Remove") + " " + chip.dataset.label);
    items.querySelector(".picked").appendChild(chip);
    items.dataset.touched = "1";
    return true;
  }

  function refreshItems(items) {
    var list = picked(items), max = parseInt(items.dataset.max || "0", 10), min = parseInt(items.dataset.min || "0", 10);
    var limits = JSON.parse(items.dataset.limits || "{}");
    items.querySelectorAll(".palette .chip[data-value]").forEach(function (c) {
      var v = c.dataset.value, n = list.filter(function (x) { return x === v; }).length;
      c.disabled = !allowed(items, v, list);
      var left = c.querySelector(".chip-left");
      if (left) left.textContent = v in limits ? " ×" + (limits[v] - n) : "";
    });
    var legend = items.closest(".fld") && items.closest(".fld").querySelector(".items-left");
    if (legend) {
      legend.textContent = list.length >= max ? legend.dataset.doneText || "" : fmt(legend.dataset.leftText, max - list.length);
      legend.classList.toggle("short", list.length < min);
    }
    var box = items.querySelector(".picked");
    box.classList.toggle("empty", !list.length);
    box.dataset.empty = box.dataset.emptyText || "";
    var form = items.closest("form.act[data-draft]");
    if (form && form.dataset.draft === items.dataset.field && items.dataset.touched) draft(form, list);
  }

  /* -- a draft: what the player has laid in a form whose list counts at the sand's end (as dice
        lying on his board would) goes to the table as he taps, sent or not (web/drafts.py) -- */
  var drafts = {}, draftTimer = null;

  function draft(form, list) {
    var game = document.body.dataset.game, player = form.dataset.player, key = JSON.stringify(list);
    if (!game || !player || drafts[player] === key || !window.companionPost) return;
    drafts[player] = key;
    clearTimeout(draftTimer);
    draftTimer = setTimeout(function () {
      window.companionPost("/api/games/" + encodeURIComponent(game) + "/draft", {player: player, values: list.map(function (v) { return JSON.parse(v); })})
        .catch(function () { delete drafts[player]; });  /* the sand ran out meanwhile: nothing to keep */
    }, 120);
  }

  /* at 5 s the phone says that what lies in its plan will count */
  var warnOn = false;
  function warn() {
    document.querySelectorAll("[data-draft-warning]").forEach(function (el) {
      if (el.tagName === "P") el.hidden = !warnOn;
    });
  }

  window.companionItems = {
    set: function (items, values) {
      items.querySelectorAll(".picked [data-value]").forEach(function (c) { c.remove(); });
      (values || []).forEach(function (v) { add(items, JSON.stringify(v)); });
      refreshItems(items);
    },
  };

  /* -- a range: − / + around the number, and what that number brings -- */
  function step(button) {
    var input = button.parentElement.querySelector("input[type=number]");
    var lo = parseInt(input.min, 10), hi = parseInt(input.max, 10), by = parseInt(input.step || "1", 10) || 1;
    var now = parseInt(input.value, 10);
    if (isNaN(now)) now = parseInt(button.dataset.step, 10) > 0 ? lo - by : hi + by;
    input.value = Math.max(lo, Math.min(hi, now + by * parseInt(button.dataset.step, 10)));
    input.dataset.touched = "1";
    fire(input);
    rangePreview(input);
  }

  function rangePreview(input) {
    var box = input.closest(".fld"), pv = box && box.querySelector(".range-preview");
    if (!pv) return;
    var map = pv.dataset.previews ? JSON.parse(pv.dataset.previews) : null;
    pv.textContent = (map && map[input.value]) || pv.dataset.static || "";
    box.querySelectorAll(".step").forEach(function (b) {
      var v = parseInt(input.value, 10);
      b.disabled = !isNaN(v) && (parseInt(b.dataset.step, 10) < 0 ? v <= parseInt(input.min, 10) : v >= parseInt(input.max, 10));
    });
  }

  function refresh(root) {
    (root || document).querySelectorAll(".fld-chips").forEach(sync);
    (root || document).querySelectorAll("[data-kind=items]").forEach(refreshItems);
    (root || document).querySelectorAll(".fld-range input[type=number]").forEach(rangePreview);
  }

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button");
    if (!b) return;
    var form = b.closest("form.act");
    if (form) lastForm = form;
    if (b.classList.contains("chip") && b.closest(".fld-chips")) { ev.preventDefault(); choose(b, true); return; }
    var items = b.closest("[data-kind=items]");
    if (items && b.classList.contains("picked-chip")) { ev.preventDefault(); b.remove(); items.dataset.touched = "1"; refreshItems(items); return; }
    if (items && b.classList.contains("add")) {
      ev.preventDefault();
      add(items, b.dataset.value);
      refreshItems(items);
      /* a list of a fixed length (five dice thrown): the die that completes it sends it, one tap a die */
      if (form && form.hasAttribute("data-full-sends") && picked(items).length === parseInt(items.dataset.max || "0", 10) && !check(form)) form.requestSubmit();
      return;
    }
    if (b.classList.contains("step")) { ev.preventDefault(); step(b); return; }
    if (b.dataset.fill !== undefined && form) {  /* a suggestion: its list into the field, then sent */
      ev.preventDefault();
      var target = form.querySelector('[data-kind=items][data-field="' + b.dataset.fillField + '"]');
      if (target) window.companionItems.set(target, JSON.parse(b.dataset.fill));
      form.requestSubmit();
    }
  });
  document.addEventListener("input", function (ev) {
    if (ev.target.matches && ev.target.matches(".fld-range input[type=number]")) rangePreview(ev.target);
  });
  document.addEventListener("focusin", function (ev) {
    var form = ev.target.closest && ev.target.closest("form.act");
    if (form) lastForm = form;
  });

  /* -- a tap on the picture (pick.js): the value goes into the field of that name in the form
        the player has open; a path is built field by field until it is one of the walks offered -- */
  function formFor(field) {
    var sel = '[data-field="' + CSS.escape(field) + '"]';
    if (lastForm && document.contains(lastForm) && lastForm.querySelector(sel)) return lastForm;
    var all = Array.prototype.filter.call(document.querySelectorAll("form.act"), function (f) {
      var el = f.querySelector(sel);
      return el && !el.closest(".sub[hidden]") && f.offsetParent !== null;
    });
    return all[0] || null;
  }

  function values(el) {  /* the JSON of each value a field offers now */
    if (el.tagName === "SELECT") return Array.prototype.filter.call(el.options, function (o) { return o.value && !o.disabled; }).map(function (o) { return o.value; });
    var box = el.closest(".fld");
    return Array.prototype.map.call(box.querySelectorAll(".chip[data-value]"), function (c) { return c.dataset.value; });
  }

  function setValue(el, json) {
    if (el.tagName === "SELECT") { el.value = json; el.dataset.touched = "1"; fire(el); return; }
    var chip = Array.prototype.filter.call(el.closest(".fld").querySelectorAll(".chip[data-value]"), function (c) { return c.dataset.value === json; })[0];
    if (chip) choose(chip, false);  /* the picture chooses, the player still sends */
  }

  function flash(el) {
    var box = el.closest(".fld") || el;
    box.classList.remove("picked-flash");
    void box.offsetWidth;
    box.classList.add("picked-flash");
  }

  document.addEventListener("companion:pick", function (ev) {
    var d = ev.detail || {}, form = formFor(d.field);
    if (!form) return;
    var el = Array.prototype.filter.call(form.querySelectorAll('[data-field="' + CSS.escape(d.field) + '"]'), function (e) { return !e.closest(".sub[hidden]"); })[0];
    if (!el) return;
    var json = JSON.stringify(d.value);
    if (el.dataset.kind === "items") {
      if (!add(el, json)) say(d.label || json, true);
      refreshItems(el);
      flash(el);
      return;
    }
    var offered = values(el);
    if (offered.indexOf(json) >= 0) { setValue(el, json); flash(el); return; }
    /* a path: the fields tapped so far, kept on the form until they make one of the walks */
    var lists = offered.map(function (v) { try { return JSON.parse(v); } catch (e) { return null; } }).filter(Array.isArray);
    if (!lists.length) { say(d.label || json, true); return; }
    var path = JSON.parse(form.dataset.path || "[]").concat([d.value]);
    var starts = function (p) { return lists.some(function (l) { return JSON.stringify(l.slice(0, p.length)) === JSON.stringify(p); }); };
    if (!starts(path)) path = [d.value];
    if (!starts(path)) { form.dataset.path = "[]"; say(d.label || json, true); return; }
    form.dataset.path = JSON.stringify(path);
    var whole = JSON.stringify(path);
    if (offered.indexOf(whole) >= 0) setValue(el, whole);
    var box = el.closest(".fld") || el;
    box.querySelectorAll(".chip[data-value]").forEach(function (c) {
      var l = JSON.parse(c.dataset.value);
      c.classList.toggle("maybe", Array.isArray(l) && JSON.stringify(l.slice(0, path.length)) === JSON.stringify(path));
    });
    flash(el);
  });

  /* -- the sand timer: a buzz and a short beep at 5 s left and at the end, where the browser allows.
        No sound before the player has touched the page (browsers forbid it, and a phone in a pocket
        that was never used should stay quiet): the audio starts on the first tap. -- */
  var audio = null, touched = false, prevLeft = null;

  function unlock() {
    touched = true;
    var AC = window.AudioContext || window.webkitAudioContext;
    if (!audio && AC) { try { audio = new AC(); } catch (e) { audio = null; } }
    if (audio && audio.state === "suspended" && audio.resume) audio.resume();
  }
  ["pointerdown", "touchstart", "keydown"].forEach(function (type) { document.addEventListener(type, unlock, {passive: true}); });

  function beep(ms, hz) {
    if (!audio) return;
    try {
      var osc = audio.createOscillator(), gain = audio.createGain(), now = audio.currentTime;
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.2, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + ms / 1000);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(now);
      osc.stop(now + ms / 1000);
    } catch (e) { /* no sound rather than no page */ }
  }

  function alarm(end) {
    if (touched && navigator.vibrate) { try { navigator.vibrate(end ? [300, 120, 300] : 150); } catch (e) { /* not allowed */ } }
    if (touched) beep(end ? 600 : 150, end ? 660 : 880);
  }
  window.companionAlarm = alarm;

  var rang = {};  /* what this run of the timer has rung already */

  function ring(which) {
    if (rang[which]) return;
    rang[which] = true;
    alarm(which === "end");
  }

  document.addEventListener("companion:timer", function (ev) {
    var d = ev.detail || {};
    var was = warnOn;
    warnOn = !!d.running && d.left > 0 && d.left <= 5;
    if (warnOn !== was) warn();
    if (d.running) {
      if (prevLeft === null) rang = {};
      else {
        if (prevLeft > 5 && d.left <= 5 && d.left > 0) ring("five");
        if (prevLeft > 0 && d.left <= 0) ring("end");
      }
      prevLeft = d.left;
      return;
    }
    if (d.expired && prevLeft !== null && prevLeft > 0) ring("end");  /* the table said it first */
    prevLeft = null;
  });

  /* the sand ran out on the table before this page counted down to 0 (or the bar is gone with the phase) */
  document.addEventListener("companion:state", function (ev) {
    var d = ev.detail || {}, last = (d.last_actions || [])[0];
    var out = (d.timer && d.timer.expired) || (last && last.action && last.action.type === "timer_expired");
    if (prevLeft !== null && prevLeft > 0 && out) { ring("end"); prevLeft = null; }
  });

  document.addEventListener("companion:state", function () { refresh(document); warn(); });
  refresh(document);
})();
