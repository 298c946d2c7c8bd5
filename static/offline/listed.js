/* Home and History: the matches this phone keeps for scoring with no network (kept.js: each
   score link opened, each match started here) that the page does not list, listed after the
   others (a page kept from before they were opened or started, or not yet on the server); what
   waits on this phone to be sent, counted on each match's row and above the list; and the
   sending of it (outbox.js) as soon as the server answers, again whenever the network comes
   back. A page the service worker answered from its copy says as of when. */
import { bases } from "./kept.js";
import { counted, matches, sendAll, waiting } from "./outbox.js";
import { clock } from "./state.js";

const place = document.querySelector("[data-kept-matches]");
const model = document.querySelector("template[data-kept-match]");
const status = document.querySelector("[data-waiting-status]");
const RETRY_MS = 15000;

// A link to a kept match, named as the page names its own: the game, then the players.
function link(base, words) {
  const item = model.content.firstElementChild.cloneNode(true);
  item.href = `/m/${base.public_id}/`;
  item.querySelector("[data-game]").textContent = words.games[base.document.game] || base.document.game;
  const players = item.querySelector("[data-players]");
  base.document.players.forEach((name, seat) => {
    if (seat) players.append(words.separator);
    const isolated = document.createElement("bdi");
    isolated.textContent = name;
    players.append(isolated);
  });
  item.querySelector("small").textContent = said(base);
  return item;
}

// A match started here is said to be waiting for the server until it is there.
const said = (base) => (base.create ? place.dataset.unsent : place.dataset.kept);

// The kept matches' rows say it again once something was sent.
async function relabel() {
  const kept = new Map((await bases.all()).map((base) => [`/m/${base.public_id}/`, base]));
  for (const item of place.querySelectorAll("a.match-link")) {
    const base = kept.get(new URL(item.href).pathname);
    if (base) item.querySelector("small").textContent = said(base);
  }
}

const listedPaths = () => new Set(Array.from(document.querySelectorAll("a.match-link"), (a) => new URL(a.href).pathname));

async function list() {
  const listed = listedPaths();
  const missing = (await bases.all()).filter((base) => !listed.has(`/m/${base.public_id}/`));
  if (!missing.length) return;
  const words = { games: JSON.parse(place.dataset.games), separator: place.dataset.separator };
  place.append(...missing.map((base) => link(base, words)));
  place.hidden = false;
  for (const none of document.querySelectorAll("[data-no-matches]")) none.hidden = true;
}

// Each match's row says what of it waits ("3 rounds waiting to be sent"), or that its page must
// be opened to answer a question; the line above the list counts it all, or says what was sent.
function show(byMatch, asks, sent) {
  const said = status.dataset;
  const words = JSON.parse(said.words);
  for (const row of document.querySelectorAll("a.match-link")) {
    const publicId = (/^\/m\/([^/]+)\/$/.exec(new URL(row.href).pathname) || [])[1];
    const records = byMatch[publicId] || [];
    let mark = row.querySelector("[data-waiting-row]");
    const text = asks.includes(publicId) ? said.asks
      : records.length ? said.row.replace("%(what)s", counted(records, words)) : "";
    if (!text) { if (mark) mark.remove(); continue; }
    if (!mark) {
      mark = Object.assign(document.createElement("small"), { className: "waiting-row" });
      mark.dataset.waitingRow = "";
      row.append(mark);
    }
    mark.textContent = text;
  }
  const all = Object.values(byMatch).flat();
  const lines = [];
  const keptAt = Number(document.documentElement.dataset.keptAt);
  if (keptAt && !sending.answered) lines.push(said.asOf.replace("%(time)s", clock(keptAt)));
  if (sent.length) lines.push(said.sent.replace("%(what)s", counted(sent, words)));
  if (all.length) {
    const count = Object.values(byMatch).filter((records) => records.length).length;
    lines.push(said.all.replace("%(what)s", counted(all, words)).replace("%(matches)s", matches(count, words)));
  }
  status.replaceChildren(...lines.map((text) => Object.assign(document.createElement("span"), { textContent: text })));
  status.hidden = !lines.length;
}

// What this page sent, and whether the server answered it (a kept copy is then no longer
// said to be offline).
const sending = { run: null, sent: [], answered: false };

// What was sent, by this page or by the service worker (sw_sync.js), is said, and what waits
// counted again.
async function told({ sent, asks, answered }) {
  sending.sent.push(...sent);
  sending.answered ||= answered;
  show(await waiting(), asks, sending.sent);
  await relabel();
}

// Counts what waits, sends it when the browser has a network, and counts again.
async function refresh() {
  show(await waiting(), [], sending.sent);
  if (!navigator.onLine || sending.run) return;
  sending.run = sendAll()
    .then(told)
    .catch((error) => console.warn("offline:", error)) // the server did not answer: later
    .finally(() => { sending.run = null; });
}

async function start() {
  await list();
  if (!status) return;
  await refresh();
  window.addEventListener("online", refresh);
  navigator.serviceWorker?.addEventListener("message", (event) => event.data.sent && told(event.data.sent));
  setInterval(async () => {
    if (Object.keys(await waiting()).length) refresh();
  }, RETRY_MS);
}

if (place && model && window.indexedDB) start().catch((error) => console.warn("offline:", error));
