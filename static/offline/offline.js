/* Scoring with no network: the match screen's part (see games/offline.py for the whole design).

   On a score link, once the page is idle, the engine is started in a worker (worker.js: Pyodide
   running games/rules/ and the same templates). From then on, a round saved while the server
   cannot be reached is worked out on the phone: the same entry form, the same checks and
   messages, the same scoreboard, drawn by the same code. Each such round is kept in IndexedDB
   with its entry key and the match version it follows, so closing the browser loses nothing.
   When the server answers again the rounds are sent in order to the usual save URL (the entry
   key makes a resend harmless), unless another phone changed the match meanwhile: then the
   phone says what changed and the scorer adds or drops each waiting round.

   On any match page the service worker (/sw.js) keeps the page for reopening with no network;
   a phone that cannot reach the server says since when its scoreboard is unchanged. */
(function () {
  "use strict";
  if (window.scorekeeperOffline) return;
  // engine: warm; readyAt: when it could first score with no network (ms from the page's
  // start); lastSave: {ms} from Save to the redrawn screen painted; score(document JSON text):
  // the engine's result on this phone (JSON text), for checking it against the server's.
  const api = (window.scorekeeperOffline = { engine: false, lastSave: null, error: null });
  const root = document.documentElement;
  const here = location.pathname;
  const scoring = here.match(/^\/m\/([^/]+)\/$/);
  const publicId = scoring ? scoring[1] : null;
  const language = root.lang || "en";
  const showAll = new URLSearchParams(location.search).get("rounds") === "all";
  const note = document.querySelector("[data-offline-note]");
  const panel = document.querySelector("[data-offline-conflict]");
  const workerUrl = new URL("worker.js", document.currentScript.src).href;
  const stateUrl = publicId && `/m/${publicId}/offline.json`;
  const roundsUrl = publicId && `/m/${publicId}/rounds/`;
  const RETRY_MS = 10000;

  let reachable = true; // the server answered the last request
  let base = null; // the match as the server had it when the phone last saw it (offline.json)
  let pending = []; // rounds entered on this phone and not yet sent, oldest first
  let lastSeen = Number(localStorage.getItem("seen:" + here)) || null;
  let lastFailure = 0;
  let pageKept = !("serviceWorker" in navigator && window.isSecureContext); // nowhere to keep it
  let worker = null;
  let engine = null;

  const offline = () => !navigator.onLine || !reachable;

  // ---- one change at a time: saving offline, taking the server's state, sending
  let queue = Promise.resolve();
  function serial(work) {
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  }

  // ---- IndexedDB: bases (the server's state), pending (rounds to send), views (the last screen)
  let opened = null;
  function database() {
    opened = opened || new Promise((resolve, reject) => {
      const request = indexedDB.open("scorekeeper-offline", 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        db.createObjectStore("bases", { keyPath: "public_id" });
        db.createObjectStore("views", { keyPath: "public_id" });
        db.createObjectStore("pending", { keyPath: "seq", autoIncrement: true }).createIndex("match", "match");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return opened;
  }
  function store(name, mode, work) {
    return database().then((db) => new Promise((resolve, reject) => {
      // strict: a round kept on the phone is on its disk before the screen says so
      const transaction = db.transaction(name, mode, { durability: "strict" });
      const request = work(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(request ? request.result : undefined);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    }));
  }
  const loadPending = () => store("pending", "readonly", (s) => s.index("match").getAll(publicId));
  const keepBase = (state) => store("bases", "readwrite", (s) => s.put(state));

  // ---- the engine, in a worker
  function call(name, args) {
    return new Promise((resolve, reject) => {
      const id = (call.next = (call.next || 0) + 1);
      call.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, call: name, args });
    });
  }
  call.waiting = new Map();

  function startEngine(manifest) {
    if (engine || !manifest.runtime || !window.Worker || !window.WebAssembly) return engine;
    worker = new Worker(workerUrl);
    worker.onmessage = (event) => {
      const { id, result, error, ms } = event.data;
      const waiting = call.waiting.get(id);
      call.ms = ms;
      call.waiting.delete(id);
      if (error) waiting.reject(new Error(error));
      else waiting.resolve(result);
    };
    engine = call("start", { runtime: manifest.runtime, bundles: manifest.bundles })
      .then((times) => { api.startup = times; })
      .then(() => serial(async () => {
        if (!base) return;
        const drawn = JSON.parse(await call("body", payload())); // the first drawing warms it up
        api.startup.warm = Math.round(call.ms || 0);
        // A screen kept from before the state this phone last saw: drawn again from that state
        // (never over a newer screen a live update brought, nor over what the scorer typed).
        const typed = document.querySelector("#entry[data-typed]");
        if (!pending.length && shownVersion() < base.version && !typed) showBody(drawn.html);
      }))
      .then(() => { api.engine = true; update(); return true; })
      .catch((error) => { api.error = String(error); return false; });
    api.score = (document) => engine.then(() => call("score", document));
    return engine;
  }

  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }
  function csrf() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function payload(extra) {
    return JSON.stringify(Object.assign({
      state: base, pending: pending.map((record) => record.entry), csrf: csrf(),
      entry_key: newKey(), language, show_all: showAll,
    }, extra));
  }

  // ---- the screen
  function showBody(html) {
    htmx.swap(document.getElementById("match-body"), html,
              { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
  }
  // Rounds entered on the phone and not yet sent: marked, and without the link to change them
  // (the server does not have them yet).
  function markWaiting() {
    if (!base) return;
    document.querySelectorAll(".scoreboard tbody th[scope=row]").forEach((cell) => {
      const waiting = pending.length > 0 && Number(cell.textContent) > base.numbers.length;
      cell.parentElement.classList.toggle("waiting", waiting);
      const link = cell.querySelector("a");
      if (waiting && link) link.replaceWith(link.textContent);
    });
  }
  function clock(time) {
    return new Date(time).toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }
  function update() {
    const scoringHere = publicId && api.engine && base;
    if (note) {
      const lines = [];
      if (offline()) {
        if (scoringHere) lines.push(note.dataset.scoring);
        else lines.push(note.dataset.asOf.replace("%(time)s", clock(lastSeen || Date.now())));
      }
      if (pending.length) lines.push(note.dataset.waiting.replace("%(count)s", pending.length));
      note.replaceChildren(...lines.map((line) => Object.assign(document.createElement("span"), { textContent: line })));
      note.hidden = lines.length === 0;
    }
    // Share, history, export, close: they need the server.
    document.querySelectorAll("#match-body .tools").forEach((tools) => {
      tools.hidden = offline() || pending.length > 0;
    });
    const entry = document.getElementById("entry");
    if (entry && panel) entry.hidden = !panel.hidden;
    markWaiting();
    // Ready to score with no network: the engine warm, the match's state and page kept.
    root.dataset.offline = api.engine && base && pageKept ? "ready" : "";
    if (root.dataset.offline && !api.readyAt) api.readyAt = performance.now();
  }
  function seen() {
    lastSeen = Date.now();
    localStorage.setItem("seen:" + here, String(lastSeen));
  }

  // ---- saving and previewing on the phone
  // A save is worked out here when the phone knows it has no network, or when rounds already
  // wait (a new one must not overtake them); otherwise it goes to the server first and comes
  // here only if the network fails it.
  function handledHere() {
    return Boolean(publicId && api.engine && base && panel
                   && (!navigator.onLine || pending.length > 0 || !panel.hidden));
  }
  function fieldsOf(requestConfig, form) {
    const data = (requestConfig && requestConfig.formData) || new FormData(form);
    return Array.from(data.entries()).filter(([, value]) => typeof value === "string");
  }

  function saveHere(form, requestConfig, started) {
    const fields = fieldsOf(requestConfig, form);
    const key = (fields.find(([name]) => name === "entry_key") || [])[1] || newKey();
    previewWanted = null;
    return serial(async () => {
      const queued = performance.now();
      const answer = JSON.parse(await call("save", payload({ form: fields, entry_key: key, next_key: newKey() })));
      const engineMs = call.ms;
      const computed = performance.now();
      let record = null;
      if (!answer.error) {
        record = {
          match: publicId, key, fields, entry: answer.entry, version: base.version,
          position: base.numbers.length + pending.length + 1, lines: "", at: Date.now(),
        };
        record.seq = await store("pending", "readwrite", (s) => s.add(record));
        pending.push(record);
      }
      const kept = performance.now();
      showBody(answer.html);
      update();
      const swapped = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const painted = performance.now();
        api.lastSave = {
          started, painted, ms: painted - started, saved: !answer.error, waited: queued - started,
          engine: engineMs, message: computed - queued - engineMs, kept: kept - computed,
          swapped: swapped - kept, painting: painted - swapped,
        };
      }));
      if (record) {
        // What the round scored, for the scorer to recognise it if another phone interferes.
        const breakdown = document.querySelector("#match-body .breakdown ul");
        record.lines = breakdown ? breakdown.innerHTML : "";
        store("pending", "readwrite", (s) => s.put(record));
        store("views", "readwrite", (s) => s.put({ public_id: publicId, html: answer.html }));
      }
    }).catch((error) => {
      api.error = String(error);
      const note = form.querySelector("[data-not-saved]");
      if (note) note.hidden = false;
    });
  }

  // Only the latest preview matters: one asked while another is worked out replaces any
  // still waiting, and a save drops them (it must not wait behind them).
  let previewWanted = null;
  let previewing = false;
  async function previewHere(target, form) {
    previewWanted = { target, fields: fieldsOf(null, form) };
    if (previewing) return;
    previewing = true;
    while (previewWanted) {
      const wanted = previewWanted;
      previewWanted = null;
      try {
        const answer = await serial(() => call("preview", payload({ form: wanted.fields })));
        if (!previewWanted) wanted.target.innerHTML = JSON.parse(answer).html;
      } catch (error) {
        api.error = String(error);
      }
    }
    previewing = false;
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (!publicId || !elt) return;
    if (elt.id === "entry" && handledHere()) {
      event.preventDefault();
      saveHere(elt, event.detail.requestConfig, performance.now());
    } else if (elt.id === "preview" && handledHere()) {
      event.preventDefault();
      previewHere(elt, document.getElementById("entry"));
    } else if (elt.id === "entry" && pending.length > 0) {
      // Rounds are waiting and the engine is not ready: this one must not overtake them.
      event.preventDefault();
      const note = elt.querySelector("[data-not-saved]");
      if (note) note.hidden = false;
      sync();
    }
  });

  document.addEventListener("htmx:sendError", (event) => {
    reachable = false;
    const elt = event.detail.elt;
    // A save that met a dead network: worked out here instead (the same key makes it safe if
    // it did reach the server).
    if (publicId && elt && elt.id === "entry" && api.engine && base) {
      const note = elt.querySelector("[data-not-saved]");
      if (note) note.hidden = true;
      saveHere(elt, event.detail.requestConfig, performance.now());
    }
    update();
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr || xhr.status === 0) return;
    reachable = true;
    if (event.detail.elt && event.detail.elt.matches("[data-live]")) seen();
    update();
    if (pending.length) sync();
  });

  // While rounds wait to be sent the screen shows them: a live update must not hide them (the
  // sending shows the server's scoreboard once it is done).
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (pending.length && event.detail.elt && event.detail.elt.matches("[data-live]")) {
      event.detail.shouldSwap = false;
    }
  });

  // The match changed on the server (a save's answer, a live update): keep its state (the
  // server sends it with every match body it draws; a live update alone brings only the
  // scoreboard, so the state is asked for) and, a moment later, a fresh copy of the page.
  let changeTimer = null;
  document.addEventListener("htmx:afterSettle", (event) => {
    const elt = event.detail.elt;
    if (elt && elt.id === "match-body" && !pending.length) takePageState();
    update();
    if (!elt || !(elt.id === "match-body" || elt.matches("[data-live]")) || pending.length) return;
    if (elt.matches("[data-live]")) takeState();
    clearTimeout(changeTimer);
    changeTimer = setTimeout(keepPage, 300);
  });

  function shownVersion() {
    const live = document.querySelector("[data-live]");
    const found = live && /[?&]v=(\d+)/.exec(live.getAttribute("hx-get") || "");
    return found ? Number(found[1]) : null;
  }

  function pageState() {
    const block = document.getElementById("offline-state");
    return block ? JSON.parse(block.content.textContent) : null;
  }
  // The state the server drew the screen from becomes the base, unless rounds wait (they follow
  // the base they were entered on) or the base kept is newer (a page kept from before).
  function takePageState() {
    let state = pageState();
    if (!publicId || !state || pending.length || (base && base.version > state.version)) return;
    if ("after" in state) { // a save's answer: the round it added to the version saved from
      if (!base || base.version !== state.after) { takeState(); return; }
      state = {
        public_id: base.public_id, version: state.version, numbers: [...base.numbers, state.number],
        last: state.number, document: { ...base.document, rounds: [...base.document.rounds, state.round] },
      };
    }
    base = state;
    keepBase(state).catch(() => {});
  }

  // With no network a link on the match screen (a round's page, every round) would open the
  // browser's own error page: it stays put, under the note that says the phone is offline.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("#match-body a[href]");
    if (link && offline()) event.preventDefault();
  }, true);

  window.addEventListener("online", () => { reachable = true; update(); sync(true); });
  window.addEventListener("offline", update);

  // ---- the server's state, and a fresh copy of the page for the service worker
  async function fetchState() {
    const response = await fetch(stateUrl, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw new Error("state: " + response.status);
    reachable = true;
    return response.json();
  }
  function takeState() {
    if (!publicId) return Promise.resolve();
    return serial(async () => {
      if (pending.length) return;
      const state = await fetchState();
      if (pending.length) return;
      base = state;
      await keepBase(state);
      update();
    }).catch(() => {});
  }
  function keepPage() { // through the service worker, which keeps what it fetches
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return Promise.resolve();
    return fetch(here + location.search, { credentials: "same-origin" })
      .then((response) => { if (response.ok) { pageKept = true; update(); } })
      .catch(() => {});
  }

  // ---- sending the rounds entered offline
  function stable(value) {
    if (Array.isArray(value)) return "[" + value.map(stable).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + stable(value[k])).join(",") + "}";
    }
    return JSON.stringify(value);
  }

  // What another phone did to the match between since (the state this phone's rounds follow)
  // and server, this phone's own rounds (mine: their keys) apart: a list of sentences.
  function changesBetween(since, server, mine) {
    const words = panel.dataset;
    const said = [];
    const say = (text, number) => said.push(text.replace("%(number)s", number));
    const at = new Map(server.numbers.map((number, k) => [number, k]));
    since.numbers.forEach((number, k) => {
      if (!at.has(number)) say(words.deleted, k + 1);
      else if (stable(server.document.rounds[at.get(number)]) !== stable(since.document.rounds[k])) {
        say(words.changed, at.get(number) + 1);
      }
    });
    const before = new Set(since.numbers);
    const highest = Math.max(0, ...since.numbers);
    let other = Boolean(server.document.closed) !== Boolean(since.document.closed);
    server.numbers.forEach((number, k) => {
      if (before.has(number) || mine.includes(server.keys[k])) return;
      if (number > highest) say(words.entered, k + 1);
      else other = true;
    });
    if (!said.length && !other) {
      // The rounds are the same: this phone's must follow them, in the order entered.
      const ours = server.keys.filter((key, k) => !before.has(server.numbers[k]));
      other = stable(ours) !== stable(mine.filter((key) => ours.includes(key)));
    }
    if (other) said.push(words.other);
    return said;
  }

  let sending = null;
  // Sends what waits (now when forced, else unless a failure was recent or the scorer is asked).
  function sync(force) {
    if (!publicId || sending) return sending;
    if (!force && (Date.now() - lastFailure < RETRY_MS || (panel && !panel.hidden))) return null;
    sending = serial(send).catch((error) => {
      lastFailure = Date.now();
      if (error instanceof TypeError) reachable = false; // fetch: the network failed
      api.error = String(error);
    }).finally(() => { sending = null; update(); });
    return sending;
  }

  async function send() {
    for (let step = 0; step < 1000; step += 1) {
      pending = await loadPending();
      if (!pending.length) return step ? finish() : undefined; // nothing was waiting: as it was
      if (!base) base = await store("bases", "readonly", (s) => s.get(publicId));
      const server = await fetchState();
      const stored = new Set([...server.keys, ...server.deleted_keys]);
      const landed = pending.filter((record) => stored.has(record.key));
      const rest = pending.filter((record) => !stored.has(record.key));
      const changes = changesBetween(base, server, landed.map((record) => record.key));
      for (const record of landed) await store("pending", "readwrite", (s) => s.delete(record.seq));
      if (changes.length) {
        // Another phone moved the match: every waiting round is the scorer's to add or drop.
        for (const record of rest) {
          Object.assign(record, { ask: true, why: changes, refused: "" });
          await store("pending", "readwrite", (s) => s.put(record));
        }
        base = server;
        await keepBase(server);
        pending = rest;
        return ask(rest[0], server);
      }
      base = server; // this phone's rounds that landed are now the server's
      await keepBase(server);
      pending = rest;
      if (!rest.length) return finish();
      const next = rest[0];
      if (next.ask) return ask(next, server);
      const refused = await post(next, server.version);
      if (refused !== null && (await fetchState()).version === server.version) {
        // Refused although nothing changed (a server that cannot write, say): the scorer sees
        // the server's message and tries again or drops the round.
        Object.assign(next, { ask: true, why: [], refused });
        await store("pending", "readwrite", (s) => s.put(next));
        return ask(next, server);
      }
      // Saved, or refused because the match moved: the next turn finds out which.
    }
    return undefined;
  }

  // Sends one round as its form was typed; null once stored, else the server's refusal.
  async function post(record, version) {
    const form = new URLSearchParams();
    record.fields.forEach(([name, value]) => { if (name !== "version") form.append(name, value); });
    form.append("version", String(version));
    const token = (record.fields.find(([name]) => name === "csrfmiddlewaretoken") || [])[1] || csrf();
    const response = await fetch(roundsUrl, {
      method: "POST", body: form, credentials: "same-origin", redirect: "manual",
      headers: { "X-CSRFToken": token },
    });
    if (response.type === "opaqueredirect" || response.ok) return null;
    if (response.status === 422) { // the server's message, as it shows it above the form
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const error = page.querySelector(".error");
      return error ? error.textContent.trim() : "";
    }
    throw new Error("the server answered " + response.status); // a 403 or 5xx: later
  }

  async function finish() {
    pending = [];
    await store("views", "readwrite", (s) => s.delete(publicId));
    if (panel) panel.hidden = true;
    await serverScreen();
  }

  // The server's screen as it is now (a network that fails at once is tried twice more).
  async function serverScreen() {
    for (let tries = 1; ; tries += 1) {
      try {
        return await htmx.ajax("GET", here + location.search,
                               { target: "#match-body", select: "#match-body", swap: "outerHTML" });
      } catch { // htmx rejects with nothing when the request fails
        if (tries === 3) throw new TypeError("the match page: the network failed");
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  async function ask(record, server) {
    await serverScreen();
    const words = panel.dataset;
    const line = (tag, text, className) => Object.assign(document.createElement(tag), { textContent: text, className: className || "" });
    const children = record.why.map((text) => line("p", text));
    children.push(line("h2", words.yours.replace("%(number)s", record.position)));
    if (record.lines) {
      const lines = document.createElement("ul");
      lines.innerHTML = record.lines; // drawn by the app's own templates on this phone
      children.push(lines);
    }
    if (record.refused) children.push(line("p", record.refused, "error"));
    const add = line("button", words.add.replace("%(number)s", server.numbers.length + 1), "button primary");
    const drop = line("button", words.drop, "button");
    add.type = drop.type = "button";
    const tools = line("div", "", "tools");
    tools.append(add, drop);
    children.push(tools);
    panel.replaceChildren(...children);
    panel.hidden = false;
    update();
    add.addEventListener("click", () => decide(record, true), { once: true });
    drop.addEventListener("click", () => decide(record, false), { once: true });
  }

  function decide(record, adding) {
    serial(async () => {
      if (adding) {
        Object.assign(record, { ask: false, why: [], refused: "" });
        await store("pending", "readwrite", (s) => s.put(record));
      } else {
        await store("pending", "readwrite", (s) => s.delete(record.seq));
      }
      panel.hidden = true;
      if (!(await loadPending()).length) await finish();
    }).then(() => sync(true));
  }

  // ---- start
  function whenIdle(work) {
    const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 200));
    const go = () => idle(work, { timeout: 3000 });
    if (document.readyState === "complete") go();
    else window.addEventListener("load", go, { once: true });
  }

  async function registerWorker() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    try {
      await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
      }
      await keepPage();
    } catch (error) {
      api.error = String(error);
    }
  }

  async function start() {
    if (publicId) {
      try {
        base = (await store("bases", "readonly", (s) => s.get(publicId))) || null;
        pending = await loadPending();
        takePageState();
        if (pending.length) {
          const view = await store("views", "readonly", (s) => s.get(publicId));
          if (view) showBody(view.html);
        }
      } catch (error) {
        api.error = String(error); // no IndexedDB (a private window): online only
      }
    }
    update();
    const live = document.querySelector("[data-live]");
    if (live && navigator.onLine) htmx.trigger(live, "poll"); // is the server there?
    whenIdle(async () => {
      await registerWorker();
      if (!publicId) return;
      if (pending.length) sync();
      try {
        const response = await fetch("/offline/manifest.json", { credentials: "same-origin" });
        await startEngine(await response.json());
      } catch (error) {
        api.error = String(error);
      }
      update();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
