/* Scoring with no network: the match screen's part (see games/offline.py for the whole design).

   On a score link, once the page is idle, the engine is started in a worker (engine.js). From
   then on, a round saved while the server cannot be reached is worked out on the phone
   (scoring.js): the same entry form, checks, messages and scoreboard, drawn by the same code
   (a round saved while the engine still warms up is kept at once, and worked out once it is).
   Offline a past round is changed, deleted or restored, and the match closed or reopened, the
   same way: the round's form (or the deleted rounds) drawn on the phone, the change checked by
   the engine. Each such round or
   change is kept in IndexedDB (kept.js) with the state it follows (base.js), so closing the
   browser loses nothing. When the server answers again they are sent in order to the usual URLs
   (send.js; a resend is harmless: a round's entry key, a change already made), unless the match
   moved meanwhile: then the phone says what changed and the scorer adds or drops each waiting
   round or change (screen.js).

   On any match page the service worker (/sw.js) keeps the page for reopening with no network;
   a page answered from its copy, or a phone that cannot reach the server, says since when its
   scoreboard stands. A match started on this phone with no network (start.js) has no page yet:
   the service worker answers its score link with the match page with no match in it, and the
   engine draws the match there from its base (send.js starts it on the server first). This
   module wires the others to htmx's events and starts them. */
import { takePageState, takeState } from "./base.js";
import { manifest } from "./engine.js";
import * as kept from "./kept.js";
import {
  canKeep, canScore, changeHere, handledHere, openRound, openSeats, previewHere, saveHere, showMatch,
  startEngine,
} from "./scoring.js";
import { asking, canAsk, notSaved, showBody, tellSent, update } from "./screen.js";
import { sendAll } from "./outbox.js";
import { sync } from "./send.js";
import { offline, phone, seen, unsent, warn } from "./state.js";

document.addEventListener("htmx:beforeRequest", (event) => {
  const elt = event.detail.elt;
  if (!phone.publicId || !elt) return;
  if (elt.id === "entry" && handledHere(elt)) {
    event.preventDefault();
    saveHere(elt, event.detail.requestConfig);
  } else if (elt.id === "preview" && handledHere(elt)) {
    event.preventDefault();
    previewHere(elt, document.getElementById("entry"));
  } else if (elt.id === "entry" && phone.pending.length > 0) {
    // Rounds are waiting and this phone has no engine to work this one out: it must not
    // overtake them.
    event.preventDefault();
    notSaved(elt);
    sync();
  }
});

document.addEventListener("htmx:sendError", (event) => {
  phone.reachable = false;
  const elt = event.detail.elt;
  // A save that met a dead network: worked out here instead, or kept until the engine is warm
  // (the same key makes it safe if it did reach the server).
  if (elt && elt.id === "entry" && canKeep()) {
    notSaved(elt, false);
    saveHere(elt, event.detail.requestConfig);
  }
  update();
});

document.addEventListener("htmx:afterRequest", (event) => {
  const xhr = event.detail.xhr;
  if (!xhr || xhr.status === 0) return;
  phone.reachable = true;
  if (event.detail.elt && event.detail.elt.matches("[data-live]") && xhr.status < 400) seen();
  update();
  if (phone.pending.length || unsent()) sync();
  sendOthers();
});

// What waits for the phone's other matches is sent from this page too (outbox.js), whenever
// the server answers, at most every RETRY_MS.
const others = { at: 0, RETRY_MS: 15000 };
function sendOthers() {
  if (Date.now() - others.at < others.RETRY_MS || !window.indexedDB) return;
  others.at = Date.now();
  sendAll(phone.publicId).then(({ sent }) => tellSent(sent)).catch(warn);
}

// What the service worker sent (sw_sync.js), said here once: kept for the next page that
// opens, or told to the open ones at once.
async function takeTold() {
  for (const { closed, sent } of await kept.told.take()) tellSent(sent, closed);
}
navigator.serviceWorker?.addEventListener("message", (event) => {
  if (event.data.sent && window.indexedDB) takeTold().catch(warn);
});

// While rounds wait to be sent the screen shows them: a live update must not hide them (the
// sending shows the server's scoreboard once it is done).
document.addEventListener("htmx:beforeSwap", (event) => {
  if (phone.pending.length && event.detail.elt && event.detail.elt.matches("[data-live]")) {
    event.detail.shouldSwap = false;
  }
});

// The match changed on the server (a save's answer, a live update): keep its state (the
// server sends it with every match body it draws; a live update alone brings only the
// scoreboard, so the state is asked for) and, a moment later, a fresh copy of the page.
const later = { keepPage: null };
document.addEventListener("htmx:afterSettle", (event) => {
  const elt = event.detail.elt;
  if (elt && elt.id === "match-body" && !phone.pending.length) takePageState();
  update();
  if (!elt || !(elt.id === "match-body" || elt.matches("[data-live]")) || phone.pending.length) return;
  if (elt.matches("[data-live]")) takeState();
  clearTimeout(later.keepPage);
  later.keepPage = setTimeout(keepPage, 300);
});

// With no network, or while changes wait to be sent, the server's pages of the match are not
// the match as this phone has it: a round's link opens its form drawn here, and a change made
// from it (or from the close form) is worked out here. Any other link would open the browser's
// own error page: it stays put, under the note that says the phone is offline.
const changedHere = () => canScore() && canAsk && !asking() && (offline() || phone.pending.length > 0);
const ROUND = /^\/m\/[^/]+\/rounds\/(\d+)\/$/;
const SEATS = /^\/m\/[^/]+\/(join|leave)\/$/; // someone joins or leaves (games/seats.py)
const CHANGE = /\/(rounds\/\d+\/((delete|restore)\/)?|close\/|join\/|leave\/)$/;

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("#match-body a[href]");
  if (!link) return;
  const round = ROUND.exec(new URL(link.href).pathname);
  const seats = SEATS.exec(new URL(link.href).pathname);
  if (link.matches("[data-offline-back]")) {
    event.preventDefault();
    showMatch();
  } else if (round && changedHere()) {
    event.preventDefault();
    openRound(Number(round[1]));
  } else if (seats && changedHere()) {
    event.preventDefault();
    openSeats(seats[1]);
  } else if (offline()) {
    event.preventDefault();
  }
}, true);

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.closest("#match-body") || !CHANGE.test(new URL(form.action).pathname) || !changedHere()) return;
  event.preventDefault();
  event.stopPropagation(); // nor sent by htmx (the Undo after a save: partials/undo.html)
  changeHere(form, event.submitter);
}, true);

window.addEventListener("online", () => {
  phone.reachable = true;
  update();
  sync(true);
  others.at = 0;
  sendOthers();
});
window.addEventListener("offline", update);

// A fresh copy of the page, through the service worker, which keeps what it fetches.
function keepPage() {
  const controlled = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!controlled || phone.shell) return Promise.resolve(); // the shell is kept (sw.js)
  return fetch(phone.path + location.search, { credentials: "same-origin" })
    .then(async (response) => {
      await response.text(); // read to its end: a body left unread keeps the request open
      if (response.ok) {
        phone.pageKept = true;
        update();
      }
    })
    .catch(warn);
}

async function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  // Where the browser has Background Sync, the service worker is a module that sends too (sw_sync.js).
  const type = "SyncManager" in window ? "module" : "classic";
  await navigator.serviceWorker.register(type === "module" ? "/sw.js?module" : "/sw.js", { scope: "/", type });
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
  keepPage(); // meanwhile the engine starts
}

function whenIdle(work) {
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 200));
  const go = () => idle(work, { timeout: 3000 });
  if (document.readyState === "complete") go();
  else window.addEventListener("load", go, { once: true });
}

// What this phone kept of the match: its base, the rounds waiting and the screen drawn for them
// (or, for a match started here, drawn when it was started: shown at once, while the engine
// starts).
async function takeKept() {
  const [base, pending, view] = await Promise.all([
    kept.bases.get(phone.publicId), kept.pending.of(phone.publicId), kept.views.get(phone.publicId),
  ]);
  phone.base = base || null;
  phone.pending = pending;
  takePageState();
  if ((phone.pending.length || phone.shell) && view) showBody(view.html);
}

// The engine, started for the match on the screen (none on a watch link or an empty shell).
async function startScoring() {
  if (!phone.publicId || (phone.shell && !phone.base)) return; // no match here to score
  if ((phone.pending.length || unsent()) && navigator.onLine) sync();
  try {
    await startEngine(await manifest());
  } catch (error) {
    warn(error);
  }
  if (!phone.engine) phone.engine = false; // none here: rounds kept meanwhile wait to be sent
  update();
}

// A phone whose engine was warm before has its files: its runtime started loading while the
// page was read (warm.js), and the engine draws at once, beside the service worker's
// registration (reopened offline, the page scores sooner). Else both wait until the page is
// idle, the page's own requests first.
async function start() {
  if (phone.publicId) await takeKept().catch(warn); // no IndexedDB (a private window): online only
  update();
  if (window.indexedDB) takeTold().catch(warn);
  const live = document.querySelector("[data-live]");
  if (live && navigator.onLine) htmx.trigger(live, "poll"); // is the server there?
  if (phone.warmBefore) {
    startScoring();
    whenIdle(() => registerWorker().catch(warn));
  } else {
    whenIdle(async () => {
      await registerWorker().catch(warn);
      await startScoring();
    });
  }
}

start(); // a module runs once the page is parsed
