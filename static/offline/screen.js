/* The screen: the note above the match (offline, as of when, rounds waiting), what was sent of
   the phone's matches, a round another phone changed, the rounds and changes not sent yet, a
   round kept while the engine warms up, the readiness mark on <html> and its line below the
   match, and the question about a waiting round or change. The words are the template's
   (match.html and its partials), in the reader's language. */
import { counted, roundsHere, sentLines } from "./outbox.js";
import { clock, offline, phone, unsent } from "./state.js";

const root = document.documentElement;
const note = document.querySelector("[data-offline-note]");
const panel = document.querySelector("[data-offline-conflict]");
const readyLine = document.querySelector("[data-offline-ready]");
const changedNote = document.querySelector("[data-changed-note]");
const sentNote = document.querySelector("[data-sent-note]");

export const canAsk = Boolean(panel);
export const asking = () => Boolean(panel && !panel.hidden);

export function showBody(html) {
  htmx.swap(document.getElementById("match-body"), html,
            { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
}

function span(text) {
  return Object.assign(document.createElement("span"), { textContent: text });
}

export function update() {
  const scoringHere = phone.publicId && phone.engine && phone.base;
  const opening = document.querySelector("#match-body [data-opening]");
  if (opening) opening.hidden = !phone.base; // this phone keeps no such match
  if (note) {
    const lines = [];
    if (phone.shell && !phone.base) lines.push(offline() ? note.dataset.notKept : note.dataset.noMatch);
    else if (offline() && scoringHere) {
      lines.push(note.dataset.scoring);
      if (!phone.keepsPages) lines.push(note.dataset.pageOnly); // a reload would lose the page
    } else if (offline() || phone.keptAt !== null) { // a kept copy is never shown as current
      lines.push(note.dataset.asOf.replace("%(time)s", clock(phone.keptAt || phone.lastSeen || Date.now())));
    }
    if (phone.pending.length) {
      lines.push(note.dataset.waiting.replace("%(what)s", counted(phone.pending, JSON.parse(note.dataset.words))));
    }
    note.replaceChildren(...lines.map(span));
    note.hidden = lines.length === 0;
  }
  // Share, history, export: they need the server, and a line says so; closing the match too,
  // unless the engine is warm and no question is asked (then it is closed here, and the close
  // sent later).
  const away = offline() || phone.pending.length > 0 || unsent();
  const closingHere = scoringHere && !asking();
  document.querySelectorAll("#match-body .tools").forEach((tools) => {
    tools.hidden = away && !closingHere;
    tools.classList.toggle("away", away);
  });
  document.querySelectorAll("#match-body [data-needs-network]").forEach((said) => {
    said.textContent = said.dataset[(unsent() ? "unsent" : "sent") + (closingHere ? "Closing" : "")];
    said.hidden = !away;
  });
  // The rounds deleted, restored here while the match is changed here (online, from History).
  document.querySelectorAll("#match-body [data-offline-deleted]").forEach((section) => {
    section.hidden = !(away && closingHere);
  });
  const entry = document.getElementById("entry");
  if (entry && panel) entry.hidden = !panel.hidden;
  if (entry) markWorking(entry);
  markWaiting();
  // Ready to score with no network: the engine warm, the match's state and page kept.
  const ready = Boolean(phone.engine && phone.base && phone.pageKept);
  root.dataset.offline = ready ? "ready" : "";
  if (readyLine) showReadiness(ready, entry);
}

// Online, while a round can be entered, a line below the match says where this phone stands,
// from the first paint (offline, the note does): getting ready, ready (where the browser keeps
// no page: while the page stays open), or not possible here.
function showReadiness(ready, entry) {
  let state = readyLine.dataset.state;
  if (phone.engine === false) state = "none";
  else if (ready) state = phone.keepsPages ? "ready" : "pageOnly";
  else if (state !== "none") state = "getting";
  readyLine.dataset.state = state;
  readyLine.textContent = readyLine.dataset[state];
  readyLine.hidden = offline() || !entry;
}

// While the engine warms up, the form says the rounds kept meanwhile are being worked out
// (unless this phone turned out to have no engine: then the note says they wait to be sent),
// and each shows on the scoreboard as a waiting row without scores; the form takes the next
// round meanwhile.
function markWorking(entry) {
  const line = entry.querySelector("[data-working]");
  if (!line) return;
  const kept = phone.engine === false ? [] : phone.pending.filter((record) => !record.kind && !record.entry);
  line.hidden = !kept.length;
  const body = document.querySelector(".scoreboard tbody");
  if (!body) return;
  body.querySelectorAll("tr[data-kept-row]").forEach((row) => row.remove());
  const cells = document.querySelectorAll(".scoreboard thead th").length - 1;
  for (const record of kept) body.append(keptRow(record.position, cells));
  const none = body.querySelector("td[colspan]:not(.hidden-rows)"); // "No rounds yet."
  if (none) none.parentElement.hidden = kept.length > 0;
}

// A round kept while the engine warms up, on the scoreboard: its number, no scores yet.
function keptRow(position, cells) {
  const row = Object.assign(document.createElement("tr"), { className: "waiting" });
  row.dataset.keptRow = "";
  const number = Object.assign(document.createElement("th"), { scope: "row", textContent: position });
  if (note) number.title = note.dataset.waitingRow;
  row.append(number, ...Array.from({ length: cells }, () => Object.assign(document.createElement("td"), { textContent: "…" })));
  return row;
}

// On a screen drawn here (the server's carries its state), rounds entered on the phone and not
// yet sent (their link opens their form: changed or deleted, the waiting round is replaced or
// dropped), and rounds changed or restored here and not yet sent: marked, the mark saying why
// (its title).
function markWaiting() {
  if (!phone.base || document.getElementById("offline-state")) return;
  const changed = new Set(phone.pending.filter((record) => record.kind === "change" || record.kind === "restore")
    .map((record) => record.number));
  document.querySelectorAll(".scoreboard tbody th[scope=row]").forEach((cell) => {
    const link = cell.querySelector("a");
    const added = phone.pending.length > 0 && Number(cell.textContent) > serverRows();
    const number = link && Number(/(\d+)\/$/.exec(link.getAttribute("href"))[1]);
    const waiting = added || changed.has(number);
    cell.parentElement.classList.toggle("waiting", waiting);
    if (waiting && note) cell.title = note.dataset.waitingRow;
    else cell.removeAttribute("title");
  });
}

// The rounds on the phone's scoreboard that the server has: its own, less those deleted here,
// and those restored here.
export const serverRows = () => roundsHere(phone.base, phone.pending, false);

export function notSaved(form, shown = true) {
  const line = form.querySelector("[data-not-saved]");
  if (line) line.hidden = !shown;
}

// The server's screen as it is now (a network that fails at once is tried twice more).
export async function serverScreen() {
  for (let tries = 1; ; tries += 1) {
    try {
      return await htmx.ajax("GET", phone.path + location.search,
                             { target: "#match-body", select: "#match-body", swap: "outerHTML" });
    } catch { // htmx rejects with nothing when the request fails
      if (tries === 3) throw new TypeError("the match page: the network failed");
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

const line = (tag, text, className = "") => Object.assign(document.createElement(tag), { textContent: text, className });

// One side of a question: its heading and what its round scores (lines: list items drawn by the
// app's own templates on this phone).
function side(heading, lines) {
  const shown = line("div", "", "side");
  shown.append(line("h2", heading));
  if (lines) {
    const list = document.createElement("ul");
    list.innerHTML = lines;
    shown.append(list);
  }
  return shown;
}

// What the scorer is asked about a waiting round or change (kind): its heading, and the words
// of the buttons that send it and that drop it. A change to a round another phone deleted can
// be added as a new round (addAs); one to a round still there is put in its place (inPlace).
function choices(words, kind, inPlace, addAs) {
  if (kind === "delete") return [words.yoursDelete, words.deleteIt, words.keep];
  if (kind === "restore") return [words.yoursRestore, words.restoreIt, words.drop];
  if (kind === "join" || kind === "leave") return [words.yoursSeats, words.send, words.drop];
  const add = words.add.replace("%(number)s", addAs);
  if (kind === "change") return [words.yoursChange, inPlace ? words.put : add, inPlace ? words.dropYours : words.drop];
  return [words.yours, add, words.drop];
}

// Asks the scorer about one waiting round or change (kind): why (what changed meanwhile,
// [{what, number}]), the round as typed (position, lines) and the server's refusal, if any.
// Resolves to true when the scorer sends it (a round added as round addAs), false when they
// drop it.
export function ask({ kind, why, position, lines, refused, addAs, inPlace, theirs }) {
  const words = panel.dataset;
  // (a question kept by an earlier version of this page holds its sentences as they were said)
  const said = (change) => (typeof change === "string" ? change : words[change.what].replace("%(number)s", change.number));
  const children = why.map((change) => line("p", said(change)));
  const [heading, yes, no] = choices(words, kind, inPlace, addAs);
  const yours = side(heading.replace("%(number)s", position), lines);
  if (theirs) {
    const sides = line("div", "", "sides");
    sides.append(side(words.theirs.replace("%(number)s", theirs.position), theirs.lines), yours);
    children.push(sides);
  } else {
    children.push(yours);
  }
  if (refused) children.push(line("p", refused, "error"));
  const add = line("button", yes, "button primary");
  const drop = line("button", no, "button");
  add.type = drop.type = "button";
  const tools = line("div", "", "tools");
  tools.append(add, drop);
  children.push(tools);
  panel.replaceChildren(...children);
  panel.hidden = false;
  update();
  return new Promise((resolve) => {
    add.addEventListener("click", () => resolve(true), { once: true });
    drop.addEventListener("click", () => resolve(false), { once: true });
  });
}

// Tells the scorer why the server refused to start the match this phone started with no
// network (its rounds stay on the phone). Resolves when the scorer asks to try again.
export function askStart(refused) {
  const words = panel.dataset;
  const retry = line("button", words.retry, "button primary");
  retry.type = "button";
  const tools = line("div", "", "tools");
  tools.append(retry);
  panel.replaceChildren(line("p", words.startRefused), line("p", refused, "error"), tools);
  panel.hidden = false;
  update();
  return new Promise((resolve) => {
    retry.addEventListener("click", () => {
      endQuestion();
      resolve();
    }, { once: true });
  });
}

export function endQuestion() {
  if (panel) panel.hidden = true;
}

// The version of the match the screen shows (its live check asks the server for newer).
export function shownVersion() {
  const live = document.querySelector("[data-live]");
  const found = live && /[?&]v=(\d+)/.exec(live.getAttribute("hx-get") || "");
  return found ? Number(found[1]) : null;
}

// Rounds this phone wrote that another phone has changed since (base.js, [{number, position}]):
// said above the match, each with a link to its history (on its page), until the page is left.
export function tellChanged(rounds) {
  if (!changedNote) return;
  const words = changedNote.dataset;
  const lines = rounds.map(({ number, position }) => {
    const line = span(words.changed.replace("%(number)s", position) + " ");
    line.append(Object.assign(document.createElement("a"), {
      href: `/m/${phone.publicId}/rounds/${number}/#history`, textContent: words.history,
    }));
    return line;
  });
  changedNote.replaceChildren(...lines);
  changedNote.hidden = false;
}

// What was sent of this phone's matches by this page or by the service worker (sendAll's sent;
// closed: with no page of the app open), said above the match until the page is left.
const sentHere = { sent: [], closed: [] };
export function tellSent(sent, closed = false) {
  if (!sentNote || !sent.length) return;
  (closed ? sentHere.closed : sentHere.sent).push(...sent);
  const words = JSON.parse(note.dataset.words);
  sentNote.replaceChildren(...sentLines(sentHere, sentNote.dataset, words).map(span));
  sentNote.hidden = false;
}
