/* amend: fixing an earlier action from the tablet. Plain JavaScript, no build step.
   The « Fix an earlier action » button opens a dialog with the history (GET .../history, rendered on the
   server); Edit loads the move form the game offered then (GET .../history/<seq>/form) and fills it in with
   what was played; sending it (POST .../history/<seq>/edit) replays the later actions. The dialog lives
   outside the live fragments, so a live update never redraws a form being corrected.
   live.js gives companionPost, companionToast and the sub-field switching (its "change" listener). */
(function () {
  "use strict";
  var game = document.body.dataset.game;
  if (!game) return;
  var base = "/api/games/" + encodeURIComponent(game);
  var dialog = null;
  var words = {};  /* the page's words, carried by the « Fix an earlier action » button (data-title, data-done…) */

  function say(text, bad) { if (window.companionToast) window.companionToast(text, bad); }

  function get(url) {
    return fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}}).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) throw new Error((j.error && j.error.message) || ("HTTP " + r.status));
        return j;
      });
    });
  }

  function box() {
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.id = "amend";
    dialog.className = "amend";
    dialog.setAttribute("aria-labelledby", "amend-title");
    var title = words.title || "Fix an earlier action";
    var close = words.close || "Close";
    dialog.innerHTML = '<header><h2 id="amend-title"></h2><button data-amend-close></button></header><div class="amend-body"></div>';
    dialog.querySelector("h2").textContent = title;
    dialog.querySelector("[data-amend-close]").textContent = "✕ " + close;
    document.body.appendChild(dialog);
    return dialog;
  }

  function show(html) {
    var d = box();
    d.querySelector(".amend-body").innerHTML = html;
    if (!d.open) d.showModal();
  }

  function list() {
    return get(base + "/history").then(function (j) { show(j.html); }).catch(function (e) { say(e.message, true); });
  }

  /* -- filling a form in with what was played: each value compared as JSON, key order aside -- */
  function canon(v) {
    if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
    if (v && typeof v === "object") return "{" + Object.keys(v).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(v[k]); }).join(",") + "}";
    return JSON.stringify(v);
  }

  function choose(select, value) {
    var want = canon(value);
    Array.prototype.some.call(select.options, function (o) {
      var v;
      try { v = o.value === "" ? undefined : JSON.parse(o.value); } catch (e) { v = o.value; }
      if (v !== undefined && canon(v) === want) { select.value = o.value; return true; }
      return false;
    });
  }

  function fill(form, prefill) {
    Object.keys(prefill).forEach(function (name) {
      form.querySelectorAll('[data-field="' + name + '"]').forEach(function (el) {
        var v = prefill[name];
        if (el.dataset.kind === "items") {  /* phone.js's chips (companionItems), or an older row of selects */
          var list = Array.isArray(v) ? v : [v];
          if (window.companionItems && el.querySelector(".picked")) { window.companionItems.set(el, list); return; }
          var sels = el.querySelectorAll("select");
          list.forEach(function (item, i) { if (sels[i]) choose(sels[i], item); });
        } else if (el.tagName === "SELECT") {
          choose(el, v);
        } else if (el.tagName === "INPUT") {
          el.value = Array.isArray(v) ? v.join(", ") : v;
        }
      });
    });
    var first = form.querySelector("select, input");  /* live.js shows the chosen choice's own fields */
    if (first) first.dispatchEvent(new Event("change", {bubbles: true}));
  }

  function edit(seq) {
    return get(base + "/history/" + seq + "/form").then(function (j) {
      show(j.html);
      var wrap = dialog.querySelector(".amend-edit");
      var prefill = JSON.parse(wrap.dataset.prefill || "{}");
      var firstForm = wrap.querySelector("form.act");
      if (firstForm) fill(firstForm, prefill);
    }).catch(function (e) { say(e.message, true); });
  }

  /* -- reading a corrected form (the same data- attributes live.js reads) -- */
  function readForm(form) {
    var action = {type: form.dataset.action};
    if (form.dataset.player !== undefined) action.player = form.dataset.player;
    form.querySelectorAll("[data-field]").forEach(function (el) {
      if (el.closest(".sub[hidden]")) return;
      var kind = el.dataset.kind, v;
      if (kind === "items") {  /* the chips picked, in order (or an older row of selects) */
        var picked = el.querySelectorAll(".picked [data-value]");
        v = picked.length || el.querySelector(".picked")
          ? Array.prototype.map.call(picked, function (c) { return JSON.parse(c.dataset.value); })
          : Array.prototype.map.call(el.querySelectorAll("select"), function (s) { return s.value; })
            .filter(Boolean).map(function (x) { return JSON.parse(x); });
      } else {
        v = (el.value || "").trim();
        if (v === "") { if (el.hasAttribute("data-optional")) return; v = null; }
        else if (kind === "int") v = parseInt(v, 10);
        else if (kind === "json") { try { v = JSON.parse(v); } catch (e) { /* a plain word */ } }
      }
      action[el.dataset.field] = v;
    });
    return action;
  }

  function done(j) {
    var text = words.done || "Corrected.";
    var colon = document.documentElement.lang === "fr" ? " : " : ": ";  /* as the catalogs write it */
    if (j.aside && j.aside.length) text += " " + j.aside.map(function (a) { return a.text + colon + a.why; }).join(" · ");
    say(text, !!(j.aside && j.aside.length));
    return list().then(function () {  /* said inside the dialog too: the toast is behind it */
      var p = document.createElement("p");
      p.className = "amend-said" + (j.aside && j.aside.length ? " bad" : "");
      p.setAttribute("role", "status");
      p.textContent = words.done || "Corrected.";  /* what was set aside is listed just below */
      var body = dialog && dialog.querySelector(".amend-body");
      if (body) body.insertBefore(p, body.firstChild);
    });
  }

  /* capture phase: live.js must not send a correction as a new action */
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    var wrap = form.closest && form.closest(".amend-edit");
    if (!wrap) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    window.companionPost(base + "/history/" + wrap.dataset.seq + "/edit", {action: readForm(form)})
      .then(done)
      .catch(function (e) { say(e.message, true); })
      .finally(function () { if (button) button.disabled = false; });
  }, true);

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button");
    if (!b) return;
    var d = b.dataset;
    if (d.amendOpen !== undefined) { ev.preventDefault(); words = Object.assign({}, d); list(); return; }
    if (d.amendClose !== undefined) { ev.preventDefault(); if (dialog) dialog.close(); return; }
    if (d.amendBack !== undefined) { ev.preventDefault(); list(); return; }
    if (d.amendEdit) { ev.preventDefault(); edit(d.amendEdit); return; }
    var url = null, ask = null;
    if (d.amendRemove) { url = base + "/history/" + d.amendRemove + "/remove"; ask = (words.removeAsk || "Remove this action?") + "\n" + (d.text || ""); }
    else if (d.amendReenter) url = base + "/aside/" + d.amendReenter + "/reenter";
    else if (d.amendDrop) url = base + "/aside/" + d.amendDrop + "/drop";
    if (!url) return;
    ev.preventDefault();
    function send() {
      b.disabled = true;
      window.companionPost(url, {}).then(done).catch(function (e) { say(e.message, true); b.disabled = false; });
    }
    if (ask && window.companionConfirm) window.companionConfirm(ask, send);  /* the page's own dialog, over this one */
    else send();
  }, true);
})();
