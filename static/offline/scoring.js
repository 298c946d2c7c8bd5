/* Scoring on the phone: a save or a preview that the engine answers instead of the server,
   with the same form, checks, messages and screen (static/offline/phone.py draws them). */
import * as engine from "./engine.js";
import * as kept from "./kept.js";
import { csrf, roundsHere, sendLater } from "./outbox.js";
import { asking, canAsk, notSaved, showBody, shownVersion, update } from "./screen.js";
import { newKey, phone, serial, warn } from "./state.js";

// What the engine is given: the base, this phone's changes to its rounds (a round changed or
// deleted, the match closed or reopened), the new rounds waiting that it has worked out (those
// kept while it warmed up come last, and are worked out in order), and what the page would post.
function payload(extra) {
  const worked = phone.pending.filter((record) => !record.kind && record.entry);
  const changes = phone.pending.filter((record) => record.kind)
    .map(({ kind, number, entry, closed, name, seat, late_start, after }) => (
      { kind, number, entry, closed, name, seat, late_start, after }));
  return JSON.stringify({
    state: phone.base, pending: worked.map((record) => record.entry), changes, csrf: csrf(),
    entry_key: newKey(), language: phone.language, show_all: phone.showAll, ...extra,
  });
}

// A round or change kept on the phone (IndexedDB) until it is sent, by a page or, once the phone
// is online, by the service worker.
async function keepWaiting(record) {
  record.seq = await kept.pending.add(record);
  phone.pending.push(record);
  sendLater();
}

// Starts the engine; once warm, the phone can score. Its first drawing warms it up, and
// redraws a screen kept from before the state this phone last saw (never over a newer screen a
// live update brought, nor over what the scorer typed), or draws the match into the page with
// no match in it (unless a drawing it kept is shown there already); then it works out the
// rounds kept meanwhile.
export async function startEngine(manifest) {
  if (!engine.possible(manifest)) return;
  await engine.start(manifest);
  await serial(async () => {
    if (!phone.base) return;
    const drawn = JSON.parse(await engine.call("body", payload()));
    const typed = document.querySelector("#entry[data-typed]");
    const empty = document.querySelector("#match-body [data-opening]");
    const older = !phone.pending.length && shownVersion() < phone.base.version;
    if ((empty || older) && !typed) showBody(drawn.html);
  });
  phone.engine = true;
  localStorage.setItem("engine:warm", "1");
  update();
  await serial(async () => {
    for (const record of phone.pending.filter((waiting) => !waiting.kind && !waiting.entry)) await workOut(record);
  }).catch(warn);
}

export const canScore = () => Boolean(phone.publicId && phone.engine && phone.base);

// A round can be kept here once the match's state is, and the engine is warm or warming up on a
// phone where it has been warm before (it has what it needs to start with no network).
export function canKeep() {
  const coming = phone.engine === null && phone.warmBefore;
  return Boolean(phone.publicId && phone.base && (phone.engine || coming));
}

// A save (or a preview, elt) is taken here when the phone knows it has no network, when rounds
// already wait (a new one must not overtake them) or while the scorer is asked about one;
// otherwise it goes to the server first and comes here only if the network fails it.
export function handledHere(elt) {
  const able = elt.id === "entry" ? canKeep() : canScore();
  return able && canAsk && (!navigator.onLine || phone.pending.length > 0 || asking());
}

function fieldsOf(requestConfig, form) {
  const data = (requestConfig && requestConfig.formData) || new FormData(form);
  return Array.from(data.entries()).filter(([, value]) => typeof value === "string");
}

// Only the latest preview matters: one asked while another is worked out replaces any still
// waiting, and a save drops them (it must not wait behind them).
const previews = { wanted: null, running: false };

// The rounds on the phone's scoreboard: the server's as changed here, and the new ones.
const rowsHere = () => roundsHere(phone.base, phone.pending);

// A round typed on the phone, as it waits to be sent: what was posted, under its entry key,
// and once the engine has worked it out, its entry and what it scored (lines).
function typed(fields) {
  return {
    match: phone.publicId, key: (fields.find(([name]) => name === "entry_key") || [])[1] || newKey(),
    fields, entry: null, version: phone.base.version,
    position: rowsHere() + 1, lines: "", at: Date.now(),
  };
}

// A save here: with the engine warm, worked out at once; while it warms up, kept at once as
// typed (its form says it is being worked out) and worked out once it is warm (startEngine).
// A round already waiting (a second tap on its form) is not kept again.
export function saveHere(form, requestConfig) {
  const fields = fieldsOf(requestConfig, form);
  previews.wanted = null;
  return serial(async () => {
    const record = typed(fields);
    if (phone.pending.some((waiting) => waiting.key === record.key)) return;
    if (canScore()) {
      await workOut(record);
      return;
    }
    await keepWaiting(record);
    nextRound(form);
    update();
  }).catch((error) => {
    warn(error);
    notSaved(form);
  });
}

// The form, once its round is kept while the engine warms up, is the next round's: emptied,
// under a new key, its number one on (the scoreboard shows the kept round waiting, screen.js).
function nextRound(form) {
  form.reset();
  delete form.dataset.typed;
  form.elements.entry_key.value = newKey();
  form.elements.round.value = Number(form.elements.round.value) + 1;
  const heading = form.querySelector("[data-round-heading]");
  heading.textContent = heading.textContent.replace(/\d+/, form.elements.round.value);
  const preview = form.querySelector("#preview");
  if (preview) preview.replaceChildren();
}

// What the scorer is typing in the next round's form while kept rounds are worked out, to
// refill the form the engine draws then: [[name, value], ...], or null when nothing is typed.
function typing(record) {
  const form = document.querySelector("#entry[data-typed]");
  if (!form || form.elements.entry_key.value === record.key) return null;
  const skip = ["csrfmiddlewaretoken", "version", "entry_key", "round"];
  return fieldsOf(null, form).filter(([name]) => !skip.includes(name));
}

function refill(fields) {
  const form = document.getElementById("entry");
  if (!form || !fields) return;
  for (const [name, value] of fields) {
    for (const input of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
      if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === value;
      else input.value = value;
    }
  }
  form.dataset.typed = "1";
}

// The engine's answer to a typed round, shown: the round kept with its entry when it is
// accepted, else the form refilled with why (a round kept while the engine warmed up no longer
// waits). What the scorer typed meanwhile in the next round's form stays typed.
async function workOut(record) {
  const asked = payload({ form: record.fields, entry_key: record.key, next_key: newKey() });
  const answer = JSON.parse(await engine.call("save", asked));
  const typed = record.seq !== undefined && !answer.error ? typing(record) : null;
  if (answer.error) {
    if (record.seq !== undefined) await kept.pending.drop(record);
    phone.pending = phone.pending.filter((waiting) => waiting !== record);
  } else {
    record.entry = answer.entry;
    if (record.seq === undefined) {
      await keepWaiting(record);
    }
  }
  showBody(answer.html);
  refill(typed);
  update();
  if (!answer.error) {
    // What was typed and what it scored, for the scorer to recognise it if another phone
    // interferes.
    record.lines = answer.lines;
    kept.pending.put(record).catch(warn);
    kept.views.put(phone.publicId, answer.html).catch(warn);
  }
}

export async function previewHere(target, form) {
  previews.wanted = { target, fields: fieldsOf(null, form) };
  if (previews.running) return;
  previews.running = true;
  while (previews.wanted) {
    const wanted = previews.wanted;
    previews.wanted = null;
    try {
      const answer = await serial(() => engine.call("preview", payload({ form: wanted.fields })));
      if (!previews.wanted) wanted.target.innerHTML = JSON.parse(answer).html;
    } catch (error) {
      warn(error);
    }
  }
  previews.running = false;
}

// A past round's form (round number), drawn here in place of the match body.
export function openRound(number) {
  return serial(async () => {
    showBody(JSON.parse(await engine.call("round_form", payload({ number }))).html);
    window.scrollTo(0, 0);
    update();
  }).catch(warn);
}

// The match body as the phone has it (back from a round's form).
export function showMatch() {
  return serial(async () => {
    showBody(JSON.parse(await engine.call("body", payload())).html);
    update();
  }).catch(warn);
}

// What a form posts to (its action): a round changed, deleted or restored, the match closed or
// reopened.
function changeOf(form, fields) {
  const action = new URL(form.action).pathname;
  if (action.endsWith("/close/")) return { kind: "close", closed: new FormData(form).get("closed") !== "0" };
  const number = Number(/\/rounds\/(\d+)\//.exec(action)[1]);
  const kind = /\/(delete|restore)\/$/.exec(action);
  return kind ? { kind: kind[1], number } : { kind: "change", number, form: fields };
}

// The rounds entered here that wait, worked out or not: a change made now comes after them.
const roundsWaiting = () => phone.pending.filter((record) => !record.kind).length;

// Someone joins or leaves (kind), the form drawn here in place of the match body.
export function openSeats(kind) {
  return serial(async () => {
    showBody(JSON.parse(await engine.call("seats", payload({ kind }))).html);
    window.scrollTo(0, 0);
    update();
  }).catch(warn);
}

// A step of the join or leave form (kind) posted here: the next step drawn, or once it is
// confirmed and the engine takes it, kept to be sent in order with the rounds (under the
// form's entry key: the server joins once however often it is sent) and the match drawn with
// it, said in one line.
function seatsHere(kind, fields) {
  const key = (fields.find(([name]) => name === "entry_key") || [])[1] || newKey();
  return serial(async () => {
    const asked = payload({ kind, form: fields, entry_key: key, next_key: newKey() });
    const answer = JSON.parse(await engine.call("seats", asked));
    if (answer.change) {
      await keepWaiting({
        ...answer.change, match: phone.publicId, key, fields,
        version: phone.base.version, after: roundsWaiting(), lines: answer.said, at: Date.now(),
      });
      kept.views.put(phone.publicId, answer.html).catch(warn);
    }
    showBody(answer.html);
    window.scrollTo(0, 0);
    update();
  }).catch(warn);
}

// A change made here from a round's form, the close form or a deleted round's, checked by the
// engine: kept to be sent in order with the new rounds and the match drawn with it, else the
// round's form (or the match) drawn with why, in the server's words.
export function changeHere(form, submitter = null) {
  const fields = fieldsOf(null, form);
  const seats = /\/(join|leave)\/$/.exec(new URL(form.action).pathname);
  if (seats) return seatsHere(seats[1], fieldsOf({ formData: new FormData(form, submitter) }));
  const change = changeOf(form, fields);
  if (change.kind === "delete" && change.number > phone.base.last) return dropWaiting(change.number);
  if (change.kind === "change" && change.number > phone.base.last) return replaceWaiting(change, fields);
  return serial(async () => {
    const answer = JSON.parse(await engine.call("change", payload({ change })));
    if (!answer.error) {
      await keepChange({
        ...answer.change, match: phone.publicId, fields, version: phone.base.version,
        position: answer.position, lines: answer.lines, after: roundsWaiting(), at: Date.now(),
      });
      kept.views.put(phone.publicId, answer.html).catch(warn);
    }
    showBody(answer.html);
    update();
  }).catch(warn);
}

// A round entered here that still waits, by its number (after the server's last round, in the
// order entered).
const waitingRound = (number) => phone.pending.filter((waiting) => !waiting.kind)[number - phone.base.last - 1];

// The match as the phone has it now, drawn and kept for reopening while rounds wait.
async function redraw() {
  const html = JSON.parse(await engine.call("body", payload())).html;
  if (phone.pending.length) kept.views.put(phone.publicId, html).catch(warn);
  else kept.views.drop(phone.publicId).catch(warn);
  showBody(html);
  update();
}

// A round entered here that still waits, changed from its form: checked by the engine as any
// change, it takes the new values in its place in the queue (the server never had it: only the
// round is sent, once, under its key), else its form says why.
function replaceWaiting(change, fields) {
  return serial(async () => {
    const answer = JSON.parse(await engine.call("change", payload({ change })));
    const record = waitingRound(change.number);
    if (answer.error || !record) {
      showBody(answer.html);
      update();
      return;
    }
    const numbered = record.fields.filter(([name]) => name === "round"); // the entry form's
    record.fields = [...fields.filter(([name]) => name !== "round"), ...numbered];
    Object.assign(record, { entry: answer.change.entry, lines: answer.lines, at: Date.now() });
    await kept.pending.put(record);
    await redraw();
  }).catch(warn);
}

// The Undo or the delete of a round entered here that still waits: dropped, never sent, and
// the match drawn without it.
function dropWaiting(number) {
  return serial(async () => {
    const record = waitingRound(number);
    if (record) {
      await kept.pending.drop(record);
      phone.pending = phone.pending.filter((waiting) => waiting !== record);
    }
    await redraw();
  }).catch(warn);
}

// A change kept to be sent; a restore of a round deleted here and not sent drops that delete.
async function keepChange(record) {
  const deleted = record.kind === "restore"
    && phone.pending.find((waiting) => waiting.kind === "delete" && waiting.number === record.number);
  if (deleted) {
    await kept.pending.drop(deleted);
    phone.pending = phone.pending.filter((waiting) => waiting !== deleted);
    return;
  }
  await keepWaiting(record);
}
