// Scorekeeper's small enhancements (no inline scripts, so a strict CSP can forbid them):
// live updates, "not saved" when a save cannot reach the server, and the keep-screen-on toggle.
(function () {
  if (window.scorekeeperStarted) return;
  window.scorekeeperStarted = true;
  var POLL_MS = 3000;

  // Live updates. The page's stream (data-stream, games/stream.py) says "version v" at once and
  // whenever the match or table moves on: each live part not at v asks its live check, and the
  // page is told (the event scorekeeper:moved, for static/table.js). While the stream is open
  // nothing else is asked. A hidden page (a phone asleep, a tab behind others) closes its
  // stream, and opens it again when it is seen: a browser holds only six connections to a
  // server over HTTP/1.1, and a sleeping phone holds none. Where the stream cannot open, or
  // while it is broken, a visible page asks "anything new?" every few seconds instead, and
  // opens the stream again later: a broken one after 3 s, 6 s, ... up to a minute, one refused
  // (this server holds none, or enough for now, or a proxy holds it back) after 30 s, 60 s, ...
  // up to 10 minutes. With no network (the browser says so) neither runs; a check the network
  // failed is asked again later each time (6 s, 12 s, ... up to a minute) until one is
  // answered; the network back, at once.
  var MAX_WAIT_MS = 60000;
  var REFUSED_MS = 30000;
  var MAX_REFUSED_MS = 600000;
  var FIRST_MESSAGE_MS = 10000;
  var failed = {count: 0, at: 0};
  var stream = {source: null, open: false, failures: 0, retryAt: 0, askAgain: false};
  function backOff(first, most, count) {
    return Math.min(first * Math.pow(2, count), most);
  }
  function due() {
    return failed.count === 0 || Date.now() - failed.at >= backOff(POLL_MS, MAX_WAIT_MS, failed.count);
  }
  function poll() {
    if (document.visibilityState !== "visible" || !window.htmx || !navigator.onLine || !due()) return;
    document.querySelectorAll("[data-live]").forEach(function (el) {
      if (!el.classList.contains("htmx-request")) htmx.trigger(el, "poll");
    });
  }
  function moved(version) {
    if (!window.htmx) return;
    document.querySelectorAll("[data-live]").forEach(function (el) {
      if (el.dataset.version === version) return;
      if (el.classList.contains("htmx-request")) stream.askAgain = true;  // asked before v: again after
      else htmx.trigger(el, "poll");
    });
    document.dispatchEvent(new CustomEvent("scorekeeper:moved", {detail: {version: version}}));
  }
  function streaming(open) {
    stream.open = open;
    document.documentElement.toggleAttribute("data-streaming", open);
  }
  function openStream() {
    var holder = document.querySelector("[data-stream]");
    if (!holder || stream.source || !window.EventSource || !navigator.onLine) return;
    if (document.visibilityState !== "visible" || Date.now() < stream.retryAt) return;
    var source = new EventSource(holder.dataset.stream);
    stream.source = source;
    // The server says the version at once: a stream that says nothing (held back by a proxy
    // that buffers it) is given up, as one refused.
    var silent = setTimeout(function () { givenUp(source, true); }, FIRST_MESSAGE_MS);
    source.addEventListener("version", function (event) {
      clearTimeout(silent);
      if (!stream.open) {
        streaming(true);
        stream.failures = 0;
      }
      moved(event.data);
    });
    source.addEventListener("error", function () {
      clearTimeout(silent);
      givenUp(source, source.readyState === EventSource.CLOSED);
    });
  }
  function givenUp(source, refused) {
    if (stream.source !== source) return;
    closeStream();
    stream.retryAt = Date.now() + (refused ? backOff(REFUSED_MS, MAX_REFUSED_MS, stream.failures)
                                           : backOff(POLL_MS, MAX_WAIT_MS, stream.failures));
    stream.failures += 1;
  }
  function closeStream() {
    if (stream.source) stream.source.close();
    stream.source = null;
    streaming(false);
  }
  setInterval(function () {
    if (!stream.open) poll();
    openStream();
  }, POLL_MS);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return closeStream();
    openStream();
    if (!stream.source) poll();  // no stream to say the version: asked
  });
  // A score link replaced on another phone opens nothing: its live check answers 410 (gone),
  // and the page is loaded again to say so (and when, and from which phone).
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.elt.matches("[data-live]") && event.detail.xhr.status === 410) location.reload();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.elt.matches("[data-live]")) return;
    if (event.detail.xhr && event.detail.xhr.status) {
      failed.count = 0;
    } else {
      failed.count += 1;
      failed.at = Date.now();
    }
    if (stream.askAgain) {
      stream.askAgain = false;
      setTimeout(poll);
    }
  });
  window.addEventListener("online", function () {
    failed.count = 0;
    stream.retryAt = 0;
    poll();
    openStream();
  });
  window.addEventListener("offline", closeStream);
  // A page back from the browser's back-forward cache had its stream closed meanwhile.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    closeStream();
    openStream();
    poll();
  });
  openStream();

  // A save that never reached the server (offline) or failed there keeps the form as typed.
  function notSaved(event) {
    var form = event.detail.elt;
    var note = form.matches("form") && form.querySelector("[data-not-saved]");
    if (note) note.hidden = false;
  }
  document.addEventListener("htmx:sendError", notSaved);
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr.status >= 500) notSaved(event);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var note = event.detail.elt.querySelector && event.detail.elt.querySelector("[data-not-saved]");
    if (note) note.hidden = true;
  });

  // Another phone saved: this phone's form catches up. An untouched form is drawn afresh for
  // the next round; a form with something typed keeps it and moves to the next round's number
  // and version. When the match ended (or was reopened) the whole match body is drawn afresh.
  document.addEventListener("input", markTyped);
  document.addEventListener("change", markTyped);
  function markTyped(event) {
    var form = event.target.closest && event.target.closest("#entry");
    if (form) form.dataset.typed = "1";
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var live = event.detail.elt;
    if (live.id !== "live" || !live.dataset.version) return;
    var body = document.getElementById("match-body");
    var form = document.getElementById("entry");
    if (!body || !form || !form.elements.version) return;
    if (form.elements.version.value === live.dataset.version) return;
    if (body.dataset.finished !== live.dataset.finished || !form.dataset.typed) {
      htmx.ajax("GET", location.pathname + location.search,
                {target: "#match-body", select: "#match-body", swap: "outerHTML"});
      return;
    }
    form.elements.version.value = live.dataset.version;
    form.elements.round.value = live.dataset.nextRound;
    form.querySelector("[data-round-heading]").textContent = live.dataset.nextHeading;
    var moved = form.querySelector("[data-moved-note]");
    moved.textContent = live.dataset.moved;
    moved.hidden = false;
    // What was typed may be the hand the other phone saved: Save becomes a choice.
    var choice = form.querySelector("[data-moved-choice]");
    if (choice) {
      var saveAs = choice.querySelector("[data-save-as]");
      saveAs.textContent = saveAs.dataset.saveAs.replace("%(number)s", live.dataset.nextRound);
      choice.hidden = false;
      form.querySelector("[data-save]").hidden = true;
    }
    var note = form.querySelector("[data-not-saved]");
    if (note && !note.hidden) note.textContent = live.dataset.backOnline;
    htmx.trigger(form, "change");  // the preview follows the new table
  });

  // A refused save: its message is brought into view, next to what was typed.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.target || event.detail.target.id !== "match-body") return;
    var error = document.querySelector("#entry .error");
    if (error) error.scrollIntoView({block: "center"});
  });

  // Keep the screen on with the Wake Lock API; browsers allow it only on HTTPS (or localhost):
  // where it is missing the button stays hidden (the readiness line below the match says why).
  var lock = null;
  function setUpWakeLock() {
    var button = document.querySelector("[data-wake-lock]");
    if (!button || button.dataset.ready || !window.isSecureContext || !("wakeLock" in navigator)) return;
    button.dataset.ready = "1";
    button.hidden = false;
    button.setAttribute("aria-pressed", lock ? "true" : "false");
    button.textContent = lock ? button.dataset.on : button.dataset.off;
  }
  function explain(button) {
    var note = document.querySelector("[data-wake-lock-note]");
    if (note) { note.textContent = button.dataset.refused; note.hidden = false; }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-wake-lock]");
    if (!button) return;
    if (lock) { lock.release(); return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      button.textContent = button.dataset.on;
      button.setAttribute("aria-pressed", "true");
      sentinel.addEventListener("release", function () {
        lock = null;
        var current = document.querySelector("[data-wake-lock]");
        if (current) { current.textContent = current.dataset.off; current.setAttribute("aria-pressed", "false"); }
      });
    }).catch(function () { explain(button); });
  });
  document.addEventListener("DOMContentLoaded", setUpWakeLock);

  // Reopening a match with no network needs a service worker, which browsers allow only in a
  // secure context (HTTPS, or localhost): the share page says so on a plain LAN address (the
  // line below a match says it there, static/offline/screen.js).
  document.addEventListener("DOMContentLoaded", function () {
    var note = document.querySelector("[data-insecure-note]");
    if (note) note.hidden = window.isSecureContext;
  });
  document.addEventListener("htmx:afterSettle", setUpWakeLock);

  // The undo after a save (partials/undo.html) is offered for 10 s; then its button goes and
  // the sentence stays in its place ("Round 5 is saved."), so nothing below it moves under a
  // finger. Refused (another phone saved meanwhile), it is sent as a plain form: the round's
  // page says why.
  var UNDO_MS = 10000;
  document.addEventListener("htmx:load", function (event) {
    event.detail.elt.querySelectorAll("[data-undo]").forEach(function (undo) {
      setTimeout(function () {
        undo.removeAttribute("data-undo");
        undo.querySelector("button").remove();
      }, UNDO_MS);
    });
  });
  // What is typed in the next round's form is kept on this phone (localStorage, per match and
  // round: "sk-typed <form's address> <round>"), so a reload, Back and forward or a language
  // switch finds it again. A form drawn afresh for that round takes it back (one the server
  // refilled, after a refused save, holds it already); a form for another round drops what was
  // kept for the rounds before it: saved, it is never filled in twice. A form emptied again
  // keeps nothing. The form's own scripts redraw it on "scorekeeper:restored".
  var TYPED = "sk-typed ";
  var SKIP = {hidden: 1, submit: 1, button: 1};
  function typedKey(form) {
    return TYPED + new URL(form.action, location.href).pathname + " " + form.elements.round.value;
  }
  function typedValues(form) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || SKIP[field.type]) return;
      if ((field.type === "radio" || field.type === "checkbox") && !field.checked) return;
      (values[field.name] = values[field.name] || []).push(field.value);
    });
    return JSON.stringify(values);
  }
  function keepTyped(event) {
    var form = event.target.closest && event.target.closest("#entry");
    if (!form || !form.elements.round || form.dataset.untyped === undefined) return;
    try {
      var values = typedValues(form);
      if (values === form.dataset.untyped) localStorage.removeItem(typedKey(form));
      else localStorage.setItem(typedKey(form), values);
    } catch (e) { /* storage full or refused: the form works as before */ }
  }
  document.addEventListener("input", keepTyped);
  document.addEventListener("change", keepTyped);
  function restoreTyped() {
    var form = document.getElementById("entry");
    if (!form || !form.elements.round || form.dataset.untyped !== undefined) return;
    var key = typedKey(form);
    var kept = null;
    try {
      var prefix = key.slice(0, key.lastIndexOf(" ") + 1);
      for (var i = localStorage.length - 1; i >= 0; i--) {
        var other = localStorage.key(i);
        if (other.indexOf(prefix) === 0 && other !== key) localStorage.removeItem(other);
      }
      kept = localStorage.getItem(key);
    } catch (e) { /* no storage: nothing kept */ }
    form.dataset.untyped = typedValues(form);
    if (!kept || form.dataset.typed) return;
    var values = JSON.parse(kept);
    var seen = {};  // fields sharing a name take its values in turn
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || SKIP[field.type]) return;
      var wanted = values[field.name] || [];
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = wanted.indexOf(field.value) >= 0;
      } else {
        seen[field.name] = (seen[field.name] || 0) + 1;
        field.value = wanted[seen[field.name] - 1] || "";
      }
    });
    form.dataset.typed = "1";
    form.dispatchEvent(new CustomEvent("scorekeeper:restored", {bubbles: true}));
    form.dispatchEvent(new Event("change", {bubbles: true}));  // the preview follows
  }
  document.addEventListener("DOMContentLoaded", restoreTyped);
  document.addEventListener("htmx:load", restoreTyped);
  window.addEventListener("pageshow", restoreTyped);

  // The scoreboard's row the line names (data-row) is highlighted, drawn anew or not.
  function markSaid() {
    var line = document.querySelector(".undo[data-row]");
    document.querySelectorAll(".scoreboard tr.said").forEach(function (row) {
      if (!line || row.dataset.place !== line.dataset.row) row.classList.remove("said");
    });
    if (!line) return;
    var row = document.querySelector('.scoreboard tr[data-place="' + line.dataset.row + '"]');
    if (row) row.classList.add("said");
  }
  document.addEventListener("DOMContentLoaded", markSaid);
  document.addEventListener("htmx:afterSettle", markSaid);
  document.addEventListener("htmx:responseError", function (event) {
    var undo = event.detail.elt;
    if (undo.matches("[data-undo]") && event.detail.xhr.status === 422) undo.submit();
  });
})();
