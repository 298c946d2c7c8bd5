/* What this page knows of its match, in one plain object the other modules read and change,
   and the queue that makes those changes one at a time. */
const root = document.documentElement;
const path = location.pathname;
const scoring = path.match(/^\/m\/([^/]+)\/$/);
// The match page with no match in it (games/offline.py match_shell), which the service worker
// keeps: the phone draws the match from what it keeps (a match it started with no network).
const shell = Boolean(document.querySelector("meta[name=offline-shell]"));
// The browser keeps pages for reopening with no network (a service worker): only in a secure
// context (HTTPS, or localhost), never over a plain HTTP address.
const keepsPages = "serviceWorker" in navigator && window.isSecureContext;

export const phone = {
  path,
  publicId: scoring ? scoring[1] : null, // a score link's token; null on a watch link
  language: root.lang || "en",
  showAll: new URLSearchParams(location.search).get("rounds") === "all",
  reachable: true, // the server answered the last request
  engine: null, // true once the engine is warm (engine.js), false if this phone has none
  // The engine has been warm on this phone before: its files are kept, it starts offline too.
  warmBefore: localStorage.getItem("engine:warm") === "1",
  base: null, // the match as the server had it when the phone last saw it (offline.json)
  pending: [], // rounds entered on this phone and not yet sent, oldest first
  keepsPages,
  // The page is kept for reopening with no network: the shell always is; a page the service
  // worker answered is (it keeps each match page it passes on); without a service worker there
  // is nowhere to keep it.
  pageKept: shell || !keepsPages || Boolean(navigator.serviceWorker.controller),
  // The service worker answered with its copy of the page (sw.js marks it): when the server
  // sent that copy, until the server answers this page.
  keptAt: "keptAt" in root.dataset ? Number(root.dataset.keptAt) : null,
  lastSeen: Number(localStorage.getItem("seen:" + path)) || null, // the last live check answered
  shell, // the match page with no match in it
};

// The match was started on this phone with no network, and the server does not have it yet.
export const unsent = () => Boolean(phone.base && phone.base.create);

export const offline = () => !navigator.onLine || !phone.reachable;

// The server answered a live check: what the screen shows is the server's, as of now.
export function seen() {
  phone.lastSeen = Date.now();
  phone.keptAt = null;
  localStorage.setItem("seen:" + path, String(phone.lastSeen));
}

// One change at a time: saving on the phone, taking the server's state, sending.
let queue = Promise.resolve();
export function serial(work) {
  const run = queue.then(work, work);
  queue = run.catch(() => {});
  return run;
}

// A random key (an entry key) or link (a match's score link, 18 bytes) in URL-safe base64.
export function newKey(size = 12) {
  const bytes = crypto.getRandomValues(new Uint8Array(size));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

// What went wrong where nobody is waiting for an answer: for whoever looks at the console.
export const warn = (error) => console.warn("offline:", error);

// The time in the reader's language with the digits every score on the screen is written in
// (Latin: a Persian clock beside Latin scores would read two kinds of digit).
export function clock(time) {
  const shown = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", numberingSystem: "latn" };
  return new Date(time).toLocaleTimeString(phone.language, shown);
}
