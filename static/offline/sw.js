/* Scorekeeper's service worker (served as /sw.js by games/offline.py, which fills in CONFIG):
   keeps on the phone what a match screen needs to open with no network.

   - the app shell (stylesheet, scripts, icon) and each match page opened (score and watch
     links): network first (a network that does not answer is given up after PAGE_WAIT_MS),
     the last copy otherwise, a page marked as a copy; static/offline/offline.js asks for a
     fresh copy whenever the match changes. A redraw htmx asks for never gets the last copy:
     it wants the server's screen as it is now, and waits for it or is told the network failed;
   - the home page, History and each game's new-match page, kept when the worker is installed
     so that a match can be started and found with no network (static/offline/start.js,
     listed.js): network first, the copy otherwise, marked (Home and History say "as of");
   - the match page with no match in it (CONFIG.matchShell): the answer for a score link with
     no page kept and no answer from the server, or one the server does not know (yet: a match
     started with no network); the phone draws the match into it if it keeps it (offline.js);
   - the Python runtime and the engine's bundles: their names change with their content, so a
     kept copy is used as it is, fetched once;
   - each regulars' table page opened (/t/, /tw/): network first, the copy otherwise, marked as
     a copy (static/table.js says "as of" when);
   - never a POST, a live check or the match state (offline.json): those need the server; nor
     a live stream (text/event-stream, games/stream.py): the browser's own, never answered here. */
"use strict";
const CONFIG = /*CONFIG*/{};
const SHELL = "shell-" + CONFIG.version;
const PAGES = "pages";
const RUNTIME = "runtime";
const PAGE_WAIT_MS = 5000;
const MATCH_PAGE = /^\/[mw]\/[^/]+\/$/;
const SCORE_PAGE = /^\/m\/[^/]+\/$/;
const TABLE_PAGE = /^\/tw?\/[^/]+\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([
    caches.open(SHELL).then((cache) => cache.addAll([...CONFIG.shell, CONFIG.manifest, CONFIG.matchShell])),
    caches.open(PAGES).then((cache) => cache.addAll(CONFIG.pages)),
  ]).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("shell-") && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// What a fresh manifest names is kept; runtimes and bundles it no longer names go.
async function pruneRuntime(manifest) {
  const cache = await caches.open(RUNTIME);
  const wanted = manifest.bundles.map((url) => new URL(url, self.location).pathname);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    const current = wanted.includes(path) || (manifest.runtime && path.startsWith(manifest.runtime));
    if (!current) await cache.delete(request);
  }
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); },
                 (error) => { clearTimeout(timer); reject(error); });
  });
}

// The network's answer (kept, when it is good), else the copy kept, through fromCopy (none:
// only the network's answer will do).
async function networkFirst(request, cacheName, wait, fromCopy) {
  try {
    const fetched = fetch(request);
    const response = await (wait ? withTimeout(fetched, wait) : fetched);
    if (response.ok) {
      const cache = await caches.open(cacheName);
      await cache.put(request.url.split("#")[0], response.clone());
    }
    return response;
  } catch (error) {
    const kept = fromCopy && (await caches.match(request.url.split("#")[0], { ignoreVary: true }));
    if (kept) return fromCopy(kept);
    throw error;
  }
}

const asItIs = (kept) => kept;

// A match page answered from the copy says so: <html data-kept-at> is when the server sent it
// (its Date header), and the screen says "as of" that time until the server answers
// (static/offline/screen.js). The copy is never shown as current.
async function marked(kept) {
  const at = Date.parse(kept.headers.get("Date")) || 0;
  const html = (await kept.text()).replace("<html ", `<html data-kept-at="${at}" `);
  const headers = new Headers(kept.headers);
  headers.delete("Content-Encoding"); // the text is decoded, and its length changed
  headers.delete("Content-Length");
  return new Response(html, { status: kept.status, statusText: kept.statusText, headers });
}

// A score link's page: as any match page, but where there is no page to show (no answer and no
// copy, or the server knows no such match) the match page with no match in it, which the phone
// fills if it keeps the match (a match started with no network, not on the server yet).
async function scorePage(request) {
  let answer = null; // none: no network, and no copy
  try {
    answer = await networkFirst(request, PAGES, PAGE_WAIT_MS, marked);
    if (answer.status !== 404) return answer;
  } catch {}
  const shell = await caches.match(CONFIG.matchShell);
  if (!shell) return answer || Response.error();
  return answer ? new Response(shell.body, { status: 404, headers: shell.headers }) : shell;
}

// The runtime's and the bundles' files being fetched and kept: url -> promise, so that each is
// downloaded once however many ask for it (the page's message and the engine's worker).
const keeping = new Map();

const isEngineFile = (path) => path.startsWith("/offline/") || path.startsWith("/static/offline/pyodide/");

// Fetches a runtime or bundle file and keeps it (once, whoever asks); rejects if not kept.
function keep(url) {
  if (!keeping.has(url)) {
    const kept = (async () => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(url + ": " + response.status);
      await (await caches.open(RUNTIME)).put(url, response);
    })().finally(() => keeping.delete(url));
    keeping.set(url, kept);
  }
  return keeping.get(url);
}

async function keptFirst(request) {
  const url = request.url.split("#")[0];
  const kept = await caches.match(url, { ignoreVary: true });
  if (kept) return kept;
  try {
    await keep(url);
    return await caches.match(url, { ignoreVary: true });
  } catch {
    return fetch(request); // not kept: the network's answer as it is (an error, say)
  }
}

// A page starting the engine asks for its files (static/offline/engine.js): they are fetched
// and kept here, so the download finishes even when the page is left (waitUntil keeps this
// worker alive meanwhile).
self.addEventListener("message", (event) => {
  const files = (event.data && event.data.keep) || [];
  const urls = files.map((file) => new URL(file, self.location))
    .filter((url) => url.origin === self.location.origin && isEngineFile(url.pathname));
  event.waitUntil(Promise.all(urls.map(async (url) => {
    if (!(await caches.match(url.href, { ignoreVary: true }))) await keep(url.href);
  })).catch(() => {}));
});

async function manifest(request) {
  const response = await networkFirst(request, SHELL, 0, asItIs);
  if (response.ok) response.clone().json().then(pruneRuntime).catch(() => {});
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.headers.get("Accept") === "text/event-stream") return; // a live stream
  const path = url.pathname;
  if (path === CONFIG.manifest) {
    event.respondWith(manifest(request));
  } else if (isEngineFile(path)) {
    event.respondWith(keptFirst(request));
  } else if (path.startsWith("/static/")) {
    event.respondWith(networkFirst(request, SHELL, PAGE_WAIT_MS, asItIs));
  } else if (MATCH_PAGE.test(path)) {
    // A redraw htmx asks for wants the server's screen as it is now: it waits for the network.
    const redraw = request.headers.has("HX-Request");
    if (redraw) event.respondWith(networkFirst(request, PAGES, 0, null));
    else if (SCORE_PAGE.test(path)) event.respondWith(scorePage(request));
    else event.respondWith(networkFirst(request, PAGES, PAGE_WAIT_MS, marked));
  } else if (TABLE_PAGE.test(path)) {
    event.respondWith(networkFirst(request, PAGES, PAGE_WAIT_MS, marked));
  } else if (CONFIG.pages.includes(path)) {
    event.respondWith(networkFirst(request, PAGES, PAGE_WAIT_MS, marked));
  }
});
