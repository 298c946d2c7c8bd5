/* Home and History: the matches this phone keeps for scoring with no network (kept.js: each
   score link opened, each match started here) that the page does not list, listed after the
   others (a page kept from before they were opened or started, or not yet on the server); each
   kept match's rounds as this phone has them (the server's as it last saw them, and those
   waiting to be sent) where the page drew fewer or older ones; what waits, counted on each
   match's row and above the list; the sending of it (outbox.js) as soon as the server answers,
   again whenever the network comes back; and what was sent, by this page or by the service
   worker (sw_sync.js), once. A page the service worker answered from its copy says as of when. */
import { bases, told } from "./kept.js";
import { counted, matches, roundsHere, sendAll, sentLines, waiting } from "./outbox.js";
import { clock } from "./state.js";

const place = document.querySelector("[data-kept-matches]");
const model = document.querySelector("template[data-kept-match]");
const status = document.querySelector("[data-waiting-status]");
const RETRY_MS = 15000;

const publicIdOf = (row) => (/^\/m\/([^/]+)\/$/.exec(new URL(row.href).pathname) || [])[1];

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
  return item;
}

async function list(words) {
  const listed = new Set(Array.from(document.querySelectorAll("a.match-link"), publicIdOf));
  const missing = (await bases.all()).filter((base) => !listed.has(base.public_id));
  if (!missing.length) return;
  place.append(...missing.map((base) => link(base, words)));
  place.hidden = false;
  for (const none of document.querySelectorAll("[data-no-matches]")) none.hidden = true;
}

// The match as this phone has it (its base and what waits): "3 rounds, in play", or that it is
// over once closed.
function rounds(base, records, words) {
  const live = roundsHere(base, records);
  const close = records.filter((record) => record.kind === "close").pop();
  if (close ? close.closed : base.document.closed) return words.over;
  return (live === 1 ? words.inPlay[0] : words.inPlay[1]).replace("%(rounds)s", live);
}

// Each row of a match this phone keeps says its rounds as this phone has them, where the page
// drew an older version (a kept copy) or rounds wait; a row listed here says first whether the
// match is on the server.
async function relabel(byMatch, words) {
  const kept = new Map((await bases.all()).map((base) => [base.public_id, base]));
  for (const row of document.querySelectorAll("a.match-link")) {
    const base = kept.get(publicIdOf(row));
    if (!base) continue;
    const records = byMatch[base.public_id] || [];
    const drawn = row.querySelector("[data-rounds]"); // History's rows: the server's count
    if (place.contains(row)) {
      row.querySelector("small").textContent = base.create ? place.dataset.unsent
        : `${place.dataset.onServer} · ${rounds(base, records, words)}`;
    } else if (drawn && (base.version > Number(row.dataset.version) || records.length)) {
      drawn.textContent = rounds(base, records, words);
    }
  }
}

// Each match's row says what of it waits ("3 rounds waiting to be sent"), or that its page must
// be opened to answer a question.
function mark(byMatch, asks, words) {
  for (const row of document.querySelectorAll("a.match-link")) {
    const publicId = publicIdOf(row);
    const records = byMatch[publicId] || [];
    let said = row.querySelector("[data-waiting-row]");
    const text = asks.includes(publicId) ? status.dataset.asks
      : records.length ? status.dataset.row.replace("%(what)s", counted(records, words)) : "";
    if (!text) { if (said) said.remove(); continue; }
    if (!said) {
      said = Object.assign(document.createElement("small"), { className: "waiting-row" });
      said.dataset.waitingRow = "";
      row.append(said);
    }
    said.textContent = text;
  }
}

// What this page sent and what the service worker did (each as sendAll says it; closed: what
// it sent with no page of the app open), the questions asked, and whether the server answered
// (a kept copy is then no longer said to be offline).
const sending = { run: null, sent: [], closed: [], asks: [], answered: false };

// The line above the list: as of when (a kept copy), what was sent, and what waits in all.
function sayAll(byMatch, words) {
  const said = status.dataset;
  const all = Object.values(byMatch).flat();
  const lines = [];
  const keptAt = Number(document.documentElement.dataset.keptAt);
  if (keptAt && !sending.answered) lines.push(said.asOf.replace("%(time)s", clock(keptAt)));
  lines.push(...sentLines(sending, said, words));
  if (all.length) {
    const count = Object.values(byMatch).filter((records) => records.length).length;
    lines.push(said.all.replace("%(what)s", counted(all, words)).replace("%(matches)s", matches(count, words)));
  }
  status.replaceChildren(...lines.map((text) => Object.assign(document.createElement("span"), { textContent: text })));
  status.hidden = !lines.length;
}

async function show() {
  const words = JSON.parse(status.dataset.words);
  const byMatch = await waiting();
  await relabel(byMatch, words);
  mark(byMatch, sending.asks, words);
  sayAll(byMatch, words);
}

// What the service worker sent (sw_sync.js), taken to be said here.
async function takeTold() {
  for (const { closed, sent } of await told.take()) (closed ? sending.closed : sending.sent).push(...sent);
}

// What a sending (this page's or the service worker's) says: its questions and whether the
// server answered.
function sendingDone({ asks, answered }) {
  sending.asks = asks;
  sending.answered ||= answered;
}

// Counts what waits, sends it when the browser has a network, and counts again.
async function refresh() {
  await show();
  if (!navigator.onLine || sending.run) return;
  sending.run = sendAll()
    .then(({ sent, ...outcome }) => {
      sending.sent.push(...sent);
      sendingDone(outcome);
      return show();
    })
    .catch((error) => console.warn("offline:", error)) // the server did not answer: later
    .finally(() => { sending.run = null; });
}

async function start() {
  await list(JSON.parse(status.dataset.words));
  await takeTold();
  await refresh();
  window.addEventListener("online", refresh);
  navigator.serviceWorker?.addEventListener("message", async (event) => {
    if (!event.data.sent) return;
    sendingDone(event.data.sent);
    await takeTold();
    await show();
  });
  setInterval(async () => {
    if (Object.keys(await waiting()).length) refresh();
  }, RETRY_MS);
}

if (place && model && status && window.indexedDB) start().catch((error) => console.warn("offline:", error));
