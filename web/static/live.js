/* Live pages: SSE with automatic reconnect, fragment swaps, action forms, confirmations.
   Plain JavaScript, no build step. Everything the page needs is in data- attributes. */
(function () {
  "use strict";
  var body = document.body;
  var game = body.dataset.game;
  var view = body.dataset.view;
  var role = body.dataset.role || "";
  var seat = body.dataset.seat || "";
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var csrf = csrfMeta ? csrfMeta.content : "";
  var statusEl = document.getElementById("live-status");
  var toastEl = document.getElementById("toast");
  var source = null, retries = 0, pending = null, timerTick = null, lastSecond = null;

  function t(text) { return text; }

  function status(text, cls) {
    if (!statusEl) return;
    statusEl.hidden = false;
    statusEl.textContent = text;
    statusEl.className = "status " + (cls || "");
  }

  function toast(text, bad) {
    if (!toastEl) return;
    toastEl.textContent = text;
    toastEl.className = "toast " + (bad ? "bad" : "good");
    toastEl.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { toastEl.hidden = true; }, bad ? 6000 : 2000);
  }
  window.companionToast = toast;

  /* a button's or a move's name alone, its words kept apart: the preview under it (« water 3→6 »), the
     override mark and the chips' dice left out, so a toast reads « ✓ Collect water », never « Collect waterwater 3→6 » */
  function plainLabel(el) {
    if (!el) return "";
    var label = el.querySelector && el.querySelector(".act-label");
    var copy = (label || el).cloneNode(true);
    copy.querySelectorAll("small, .act-preview, .ov-mark, .hint-dice").forEach(function (x) { x.remove(); });
    return (copy.textContent || "").replace(/\s+/g, " ").trim();
  }
  window.companionLabel = plainLabel;

  /* « Amount: £300 » in English, « Montant : 300 £ » in French (a space before the colon) */
  function colon() { return document.documentElement.lang === "fr" ? " : " : ": "; }

  function headers() {
    var h = {"Content-Type": "application/json", "X-CSRF-Token": csrf};
    if (role) h["X-Companion-Role"] = role;
    return h;
  }

  function post(url, data) {
    return fetch(url, {method: "POST", headers: headers(), body: JSON.stringify(data || {}), credentials: "same-origin"})
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (j) {
          if (!r.ok) throw new Error((j.error && j.error.message) || ("HTTP " + r.status));
          return j;
        });
      });
  }
  window.companionPost = post;

  /* -- the sand timer drains on the page between messages --
     five steps a second, not every display frame: the sand moves as smoothly to the eye and a phone
     (or the tablet) draws a twelfth as often while the sand runs -- */
  var SAND_TICK_MS = 200;
  function startTimers() {
    if (timerTick) clearTimeout(timerTick);
    var els = document.querySelectorAll("[data-timer]");
    var t0 = performance.now();
    function frame() {
      var live = false;
      els.forEach(function (el) {
        var seconds = parseFloat(el.dataset.seconds), left = parseFloat(el.dataset.remaining);
        if (el.dataset.running === "1") {
          left = Math.max(0, left - (performance.now() - t0) / 1000);
          live = live || left > 0;
        }
        var fill = el.querySelector(".sand-fill"), label = el.querySelector(".timer-left");
        if (fill) fill.style.width = (seconds ? 100 * left / seconds : 0).toFixed(1) + "%";
        if (label) label.textContent = Math.ceil(left);
        el.classList.toggle("low", left > 0 && left <= 5);
        if (el === els[0] && Math.ceil(left) !== lastSecond) {  /* each second: phone.js rings at 5 s and at the end */
          lastSecond = Math.ceil(left);
          document.dispatchEvent(new CustomEvent("companion:timer", {detail: {left: left, seconds: seconds, running: el.dataset.running === "1", expired: el.classList.contains("expired")}}));
        }
      });
      if (live) timerTick = setTimeout(frame, SAND_TICK_MS);
    }
    frame();
  }

  /* -- fragments: swap each [data-part]; wait while someone is typing in a form -- */
  function busy(el) {
    var a = document.activeElement;
    return a && el.contains(a) && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName);
  }

  function swap(html) {
    var deferred = false;
    Object.keys(html).forEach(function (part) {
      var el = document.querySelector('[data-part="' + part + '"]');
      if (!el) return;
      if (part === "actions" && busy(el)) { deferred = true; return; }
      /* a details the reader opened stays open, unless the page changed its mind about it (data-mode:
         the phone's own state is open while waiting, folded during a turn) */
      var open = Array.prototype.map.call(el.querySelectorAll("details[open]"), function (d) { return d.querySelector("summary").textContent + "|" + (d.dataset.mode || ""); });
      var kept = keep(el);
      el.innerHTML = html[part];
      el.querySelectorAll("details").forEach(function (d) {
        var s = d.querySelector("summary");
        if (s && open.indexOf(s.textContent + "|" + (d.dataset.mode || "")) >= 0) d.open = true;
      });
      restore(el, kept);
    });
    pending = deferred ? html : null;
    startTimers();
  }

  document.addEventListener("focusout", function () {
    setTimeout(function () { if (pending && !busy(document.querySelector('[data-part="actions"]'))) swap(pending); }, 50);
  });

  var revoked = false;

  function connect() {
    if (!game || !view || revoked) return;
    var url = "/api/games/" + encodeURIComponent(game) + "/events?view=" + view + "&role=" + encodeURIComponent(role);
    if (seat) url += "&seat=" + encodeURIComponent(seat);
    source = new EventSource(url);
    source.addEventListener("state", function (ev) {
      retries = 0;
      status("● " + (body.dataset.liveText || "Live"), "ok");
      var data = JSON.parse(ev.data);
      body.dataset.version = data.state.version;
      if (data.html) swap(data.html);
      document.dispatchEvent(new CustomEvent("companion:state", {detail: data}));
    });
    source.addEventListener("problem", function (ev) { toast(JSON.parse(ev.data).message, true); });
    source.addEventListener("revoked", function (ev) {  /* this seat was freed: say so, no reconnecting in vain */
      revoked = true;
      source.close();
      var said = "";
      try { said = JSON.parse(ev.data).message; } catch (e) { said = ""; }
      status("✕ " + said, "bad");
      toast(said, true);
      setTimeout(function () { window.location.href = "/join"; }, 2500);
    });
    /* « Live » once the first state is on the page (it follows the connection at once), not on the
       connection alone: a page that says it is live shows the game as it is */
    source.onerror = function () {
      if (revoked) return;
      status("↻ " + (body.dataset.reconnectText || "Reconnecting…"), "bad");
      source.close();
      retries += 1;
      setTimeout(connect, Math.min(5000, 300 * Math.pow(2, Math.min(retries, 5))));
    };
  }

  /* -- reading an action form -- */
  function readField(el) {
    var kind = el.dataset.kind;
    if (kind === "checks") {
      return Array.prototype.filter.call(el.querySelectorAll("input:checked"), function (c) { return true; }).map(function (c) { return c.value; });
    }
    if (kind === "seq") {
      return Array.prototype.map.call(el.querySelectorAll("select"), function (s) { return s.value; }).filter(function (v) { return v; });
    }
    if (kind === "items") {  /* a list of values, each a chip's JSON, in the order they were tapped */
      return Array.prototype.map.call(el.querySelectorAll(".picked [data-value]"), function (c) { return JSON.parse(c.dataset.value); });
    }
    if (kind === "bool") return el.checked;
    var v = el.value.trim();
    if (v === "" && el.hasAttribute("data-optional")) return undefined;
    if (kind === "int") return v === "" ? null : parseInt(v, 10);
    if (kind === "list-int") return v.split(/[\s,;]+/).filter(Boolean).map(function (x) { return parseInt(x, 10); });
    if (kind === "json") { if (v === "") return undefined; try { return JSON.parse(v); } catch (e) { return v; } }
    return v;
  }

  function readForm(form) {
    var action = {type: form.dataset.action};
    if (form.dataset.player !== undefined) action.player = form.dataset.player;
    form.querySelectorAll("[data-field]").forEach(function (el) {
      if (el.closest(".sub[hidden]")) return;  /* a field of a choice not taken (or of one inside it) */
      var v = readField(el);
      if (v !== undefined) action[el.dataset.field] = v;
    });
    return action;
  }

  /* a choice's own fields show only while it is chosen (a bid's amount for its direction).
     A .sub follows the label of the field that opens it, in the same box (the form, or the
     .sub of an outer choice: a card's destination under its species), so several fields may
     share a name (each species' "icons") without one opening another's fields. */
  function controlOf(sub) {
    var ctl = null;
    Array.prototype.forEach.call(sub.parentElement.children, function (c) {
      if (c.tagName !== "LABEL" && c.tagName !== "FIELDSET") return;
      var f = c.querySelector('[data-field="' + sub.dataset.whenField + '"]');
      if (f) ctl = f;
    });
    return ctl;
  }

  function showSubs(form) {
    /* document order: an outer .sub is settled before the ones inside it */
    form.querySelectorAll(".sub").forEach(function (sub) {
      var outer = sub.parentElement.closest(".sub"), ctl = controlOf(sub);
      sub.hidden = !!(outer && outer.hidden) || !(ctl && ctl.value === sub.dataset.when);
      /* a hidden field is neither sent nor checked by the browser (a required select of a choice not taken) */
      sub.querySelectorAll("select, input").forEach(function (i) { i.disabled = sub.hidden; });
    });
  }

  function showAllSubs(root) { (root || document).querySelectorAll("form.act").forEach(showSubs); }

  document.addEventListener("change", function (ev) {
    if (ev.target.matches && ev.target.matches("form.act select, form.act input")) ev.target.dataset.touched = "1";
    var form = ev.target.closest && ev.target.closest("form.act");
    if (form) showSubs(form);
  });

  /* -- what a player has chosen survives a live update: each touched field is put back
        where the new form still offers that value (a choice no longer legal is dropped) -- */
  function controlKey(i) {
    var parts = [], s = i.closest(".sub");
    while (s) { parts.unshift(s.dataset.whenField + "=" + s.dataset.when); s = s.parentElement.closest(".sub"); }
    parts.push(i.dataset.field);
    return parts.join("/");
  }

  function formKey(f) { return f.dataset.action + "|" + (f.dataset.player || ""); }

  function keep(el) {
    var kept = {};
    el.querySelectorAll("form.act").forEach(function (f) {
      f.querySelectorAll("select[data-touched], input[data-touched]").forEach(function (i) {
        (kept[formKey(f)] = kept[formKey(f)] || {})[controlKey(i)] = i.value;
      });
      f.querySelectorAll('[data-kind="items"][data-touched]').forEach(function (i) {  /* the chips tapped so far */
        (kept[formKey(f)] = kept[formKey(f)] || {})[controlKey(i)] = JSON.stringify(readField(i));
      });
    });
    return kept;
  }

  function restore(el, kept) {
    el.querySelectorAll("form.act").forEach(function (f) {
      var mine = kept[formKey(f)];
      if (mine) {
        /* outer fields first: their choice opens the .sub whose fields follow */
        f.querySelectorAll("select, input, [data-kind='items']").forEach(function (i) {
          var k = controlKey(i);
          if (!(k in mine)) return;
          if (i.dataset.kind === "items") {  /* put back what the new chips still allow */
            if (window.companionItems) window.companionItems.set(i, JSON.parse(mine[k]));
            i.dataset.touched = "1";
            return;
          }
          if (i.tagName === "SELECT") {
            var ok = Array.prototype.some.call(i.options, function (o) { return o.value === mine[k] && !o.disabled; });
            if (!ok) return;
          }
          if (i.type === "hidden") {  /* a row of chips: the value must still be one of them */
            var box = i.closest(".fld");
            var still = box && Array.prototype.some.call(box.querySelectorAll(".chip[data-value]"), function (c) { return c.dataset.value === mine[k]; });
            if (!still) return;
          }
          i.value = mine[k];
          i.dataset.touched = "1";
        });
      }
      showSubs(f);
    });
  }

  /* a move sent: said in a toast; the tablet goes back to the top of its page (the next seat's
     banner, the table's next step); privacy.js hears « companion:acted » to close its screen */
  function act(action, button, label, actFor) {
    if (button) button.disabled = true;
    var url = "/api/games/" + encodeURIComponent(game) + "/actions";
    if (actFor) url += "?act_for=" + encodeURIComponent(actFor);  /* the tablet acting for a phone's seat */
    var told = function (ok) { document.dispatchEvent(new CustomEvent("companion:acted", {detail: {ok: ok, type: action.type, player: action.player}})); };
    return post(url, action)
      .then(function () {
        toast("✓ " + (label || action.type.replace(/_/g, " ")), false);
        if (view === "table") window.scrollTo(0, 0);
        told(true);
      })
      .catch(function (e) { toast(e.message, true); told(false); })
      .finally(function () { if (button) button.disabled = false; });
  }

  function confirmThen(question, fn) {
    var dlg = document.getElementById("confirm");
    if (!dlg || !dlg.showModal) { if (window.confirm(question)) fn(); return; }
    dlg.querySelector(".q").textContent = question;
    dlg.returnValue = "";
    /* the question leaves nothing behind once answered (a secret vote's choice was in it) */
    dlg.onclose = function () { dlg.querySelector(".q").textContent = ""; if (dlg.returnValue === "ok") fn(); };
    dlg.showModal();
  }

  /* the sand's seconds left as the page counts them (null: no sand running) */
  function sandLeft() {
    var el = document.querySelector("[data-timer]");
    if (!el || el.dataset.running !== "1") return null;
    var label = el.querySelector(".timer-left"), n = label ? parseInt(label.textContent, 10) : NaN;
    return isNaN(n) || n <= 0 ? null : n;
  }

  /* an override's question with the sand's time left in it, where the page knows it:
     « The sand is still running: end…? » → « The sand is still running (29 s): end…? » */
  function withTime(question) {
    var left = sandLeft();
    if (left === null) return question;
    var said = " (" + left + "\u00a0s)";
    var at = question.search(/\s*[:：]/);
    return at > 0 ? question.slice(0, at) + said + question.slice(at) : question.replace(/\s*[?？]?$/, said + "$&");
  }
  window.companionWithTime = withTime;
  window.companionConfirm = confirmThen;  /* the page's own question dialog, for the other scripts */

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches("form.act")) return;
    ev.preventDefault();
    var missing = window.companionCheck ? window.companionCheck(form) : "";
    if (missing) { toast(missing, true); return; }  /* a chip still to choose: nothing is sent */
    var action = readForm(form), button = form.querySelector("button.send, button.primary") || form.querySelector("button");
    var label = plainLabel(form.querySelector(".act-name") || button);
    var send = function () {
      /* sent: the next live update brings this move's form afresh, with nothing carried over
         (the form on the page now: an update may have redrawn it while the question was open) */
      var key = formKey(form);
      document.querySelectorAll("form.act").forEach(function (f) {
        if (formKey(f) === key) f.querySelectorAll("[data-touched]").forEach(function (i) { delete i.dataset.touched; });
      });
      act(action, button, label, form.dataset.actFor);
    };
    var empty = Object.keys(action).some(function (k) { return Array.isArray(action[k]) && !action[k].length; });
    var question = [];
    if (form.dataset.ask) question.push(form.hasAttribute("data-ask-time") ? withTime(form.dataset.ask) : form.dataset.ask, summary(form));  /* an override asks its own question */
    else if (form.dataset.confirm) question.push(ask(form.dataset.confirm), summary(form));  /* spends money or ends a turn */
    if (empty) question.push(body.dataset.emptyText || "Send with nothing chosen?");  /* e.g. a plan with no dice */
    question = question.filter(Boolean);
    if (question.length) confirmThen(question.join("\n"), send);
    else send();
  });

  /* "Bid" → "Bid?" ("Enchérir ?" in French); a label that is already a question stays as it is */
  function ask(label) {
    label = label.trim();
    if (/[?？]$/.test(label)) return label;
    return label + (document.documentElement.lang === "fr" ? "\u00a0?" : "?");
  }

  /* a choice as its label says it (without the preview beside it in the list) */
  function chosen(select) {
    var o = select.options[select.selectedIndex];
    return (o.dataset.label || o.textContent).trim();
  }

  /* what is about to be sent, in the form's own words: "Direction: East · Amount: 400";
     a chip says its preview too (« +2 steps — £300 »): the question says what the move costs */
  function summary(form) {
    var parts = [];
    form.querySelectorAll(".fld").forEach(function (l) {
      if (l.closest(".sub[hidden]") || l.classList.contains("fixed")) return;
      var ctl = l.querySelector("[data-field]");
      if (!ctl) return;
      var name = l.dataset.label || (l.firstChild && l.firstChild.nodeType === 3 ? l.firstChild.textContent : "");
      name = (name || "").trim();
      var shown;
      if (ctl.tagName === "SELECT") shown = ctl.value === "" ? "" : chosen(ctl);
      else if (ctl.dataset.kind === "items") {
        shown = Array.prototype.map.call(ctl.querySelectorAll(".picked [data-value]"), function (c) { return c.dataset.label; }).join(", ");
      } else if (ctl.type === "hidden") {
        var on = ctl.value === "" ? null : Array.prototype.filter.call(l.querySelectorAll(".chip[data-value]"), function (c) { return c.dataset.value === ctl.value; })[0];
        var said = on ? (on.dataset.preview || (on.querySelector("small") ? on.querySelector("small").textContent.trim() : "")) : "";
        shown = on ? on.dataset.label + (said ? " — " + said : "") : "";
      } else {
        shown = ctl.value.trim();
        if (shown && l.dataset.format) shown = l.dataset.format.replace("{n}", shown);  /* « Amount: £300 » */
        var pv = l.querySelector(".range-preview");
        if (shown && pv && pv.dataset.previews && pv.textContent.trim()) shown += " — " + pv.textContent.trim();
      }
      if (shown) parts.push((name ? name + colon() : "") + shown);
    });
    var pv = form.querySelector(".act-preview");  /* what the move would bring (the end of a turn) */
    if (pv && pv.textContent.trim()) parts.push(pv.textContent.trim());
    return parts.join("\n");  /* one line a field: the question reads as a list */
  }

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button");
    if (!b || !game) return;
    if (b.dataset.json) { ev.preventDefault(); act(JSON.parse(b.dataset.json), b, plainLabel(b)); return; }
    if (b.dataset.draw) {
      /* a digital draw fills the move of the form it sits in: that move's question first (an override's) */
      ev.preventDefault();
      var what = {what: b.dataset.draw};
      if (b.dataset.player) what.player = b.dataset.player;
      var drawn = function () {
        b.disabled = true;
        post("/api/games/" + encodeURIComponent(game) + "/draw", what)
          .then(function () { toast("✓ " + plainLabel(b), false); if (view === "table") window.scrollTo(0, 0); })
          .catch(function (e) { toast(e.message, true); })
          .finally(function () { b.disabled = false; });
      };
      var owner = b.closest("form.act");
      var asked = owner && owner.dataset.ask;
      if (asked) confirmThen((owner.hasAttribute("data-ask-time") ? withTime(asked) : asked) + "\n" + plainLabel(b), drawn);
      else drawn();
      return;
    }
    if (b.dataset.move) {
      ev.preventDefault();
      confirmThen(b.dataset.confirm || b.dataset.move + "?", function () {
        post("/api/games/" + encodeURIComponent(game) + "/" + b.dataset.move)
          .then(function () { toast("✓ " + plainLabel(b), false); })
          .catch(function (e) { toast(e.message, true); });
      });
      return;
    }
    if (b.hasAttribute("data-current")) {
      ev.preventDefault();
      post("/api/games/" + encodeURIComponent(game) + "/current").catch(function (e) { toast(e.message, true); });
      return;
    }
    if (b.dataset.release) {
      ev.preventDefault();
      confirmThen(plainLabel(b) + " — " + b.dataset.release + "?", function () {
        var seg = window.companionSeatSegment ? window.companionSeatSegment(b.dataset.release) : encodeURIComponent(b.dataset.release);
        post("/api/games/" + encodeURIComponent(game) + "/seats/" + seg + "/release")  /* « .. » is ~2 (seats.js) */
          .catch(function (e) { toast(e.message, true); });
      });
    }
  });

  /* home page: the example players follow the chosen game */
  var gameSelect = document.getElementById("start-game");
  if (gameSelect) {
    gameSelect.addEventListener("change", function () {
      var opt = gameSelect.options[gameSelect.selectedIndex];
      var box = document.getElementById("start-players");
      if (box && opt.dataset.players) box.value = opt.dataset.players;
      document.querySelectorAll("[data-options-for]").forEach(function (fs) {  /* this game's readings only */
        var mine = fs.dataset.optionsFor === gameSelect.value;
        fs.hidden = !mine;
        fs.querySelectorAll("select").forEach(function (s) { s.disabled = !mine; });
      });
    });
  }

  showAllSubs();
  startTimers();
  connect();
})();
