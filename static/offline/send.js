/* Sending the rounds entered offline and the changes made offline (a round changed, deleted or
   restored, the match closed or reopened), in order, once the server answers; when the match moved
   meanwhile, what to ask the scorer about each waiting round or change (screen.js words it). A match
   started on this phone with no network (start.js) is started on the server first, with the
   form kept and its score link (a resend is harmless). */
import { fetchState, keep } from "./base.js";
import * as kept from "./kept.js";
import { ask, askStart, asking, endQuestion, serverScreen, update } from "./screen.js";
import { csrf, newKey, phone, serial, unsent, warn } from "./state.js";

const RETRY_MS = 10000;
const sending = { run: null, lastFailure: 0 };

// JSON with its keys sorted: two entries compare equal when they hold the same values.
function stable(value) {
  if (Array.isArray(value)) return "[" + value.map(stable).join(",") + "]";
  if (value && typeof value === "object") {
    return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + stable(value[k])).join(",") + "}";
  }
  return JSON.stringify(value);
}

// What another phone did to the match between since (the state this phone's rounds follow)
// and server, this phone's own rounds (mine: their keys) and changes that landed (ours: the
// numbers of the rounds they changed, deleted or restored, and "closed" for a close) apart, as
// [{what, number}].
function changesBetween(since, server, mine, ours) {
  const said = [];
  const at = new Map(server.numbers.map((number, k) => [number, k]));
  since.numbers.forEach((number, k) => {
    if (ours.has(number)) return;
    if (!at.has(number)) said.push({ what: "deleted", number: k + 1 });
    else if (stable(server.document.rounds[at.get(number)]) !== stable(since.document.rounds[k])) {
      said.push({ what: "changed", number: at.get(number) + 1 });
    }
  });
  const before = new Set(since.numbers);
  const highest = Math.max(0, ...since.numbers);
  let other = !ours.has("closed") && Boolean(server.document.closed) !== Boolean(since.document.closed);
  server.numbers.forEach((number, k) => {
    if (before.has(number) || ours.has(number) || mine.includes(server.keys[k])) return;
    if (number > highest) said.push({ what: "entered", number: k + 1 });
    else other = true;
  });
  if (!said.length && !other) {
    // The rounds are the same: this phone's must follow them, in the order entered.
    const added = server.keys.filter((key, k) => !before.has(server.numbers[k]) && !ours.has(server.numbers[k]));
    other = stable(added) !== stable(mine.filter((key) => added.includes(key)));
  }
  if (other) said.push({ what: "other" });
  return said;
}

// Sends what waits (now when forced, else unless a failure was recent or the scorer is asked).
export function sync(force) {
  if (!phone.publicId || sending.run) return sending.run;
  if (!force && (Date.now() - sending.lastFailure < RETRY_MS || asking())) return null;
  sending.run = serial(send).catch((error) => {
    sending.lastFailure = Date.now();
    if (error instanceof TypeError) phone.reachable = false; // fetch: the network failed
    warn(error);
  }).finally(() => {
    sending.run = null;
    update();
  });
  return sending.run;
}

async function send() {
  if (!phone.base) phone.base = await kept.bases.get(phone.publicId);
  const starting = unsent();
  if (starting && !(await startMatch())) return undefined;
  for (let step = 0; step < 1000; step += 1) {
    phone.pending = await kept.pending.of(phone.publicId);
    // Nothing waits: the screen stays as it is, unless this run sent or started something.
    if (!phone.pending.length) return step || starting ? finish() : undefined;
    const server = await fetchState();
    const landed = landedOf(phone.pending, server);
    const rest = phone.pending.filter((record) => !landed.includes(record));
    const ours = new Set(landed.filter((record) => record.kind)
      .map((record) => (record.kind === "close" ? "closed" : record.number)));
    const keys = phone.pending.filter((record) => !record.kind).map((record) => record.key);
    const changes = changesBetween(phone.base, server, keys, ours);
    for (const record of rest.filter((waiting) => differs(waiting, server))) {
      changes.push({ what: "differs", number: server.keys.indexOf(record.key) + 1 });
      record.key = newKey(); // the server holds its key: added, it is a new round
    }
    for (const record of landed) await kept.pending.drop(record);
    await keep(server); // this phone's rounds and changes that landed are now the server's
    phone.pending = rest;
    // The match moved: every waiting round or change is the scorer's to send or drop (a close
    // goes as it is: it closes the match as it then stands).
    for (const record of changes.length ? rest.filter((waiting) => waiting.kind !== "close") : []) {
      Object.assign(record, { ask: true, why: changes, refused: "" });
      await kept.pending.put(record);
    }
    if (!rest.length) return finish();
    const next = rest[0];
    if (next.ask) return question(next, server);
    const refused = await post(next, server.version);
    if (refused !== null && (await fetchState()).version === server.version) {
      // Refused although nothing changed (a server that cannot write, say): the scorer sees
      // the server's message and tries again or drops the round.
      Object.assign(next, { ask: true, why: [], refused });
      await kept.pending.put(next);
      return question(next, server);
    }
    // Saved, or refused because the match moved: the next turn finds out which.
  }
  return undefined;
}

// A round of this phone's the server holds by its key with other values than it was worked
// out with (a round the engine has not worked out yet is only what was typed).
function differs(record, server) {
  const k = record.kind ? -1 : server.keys.indexOf(record.key);
  return k >= 0 && Boolean(record.entry) && stable(server.document.rounds[k]) !== stable(record.entry);
}

// What waits that the server has already: a round it holds by its key (or deleted since) with
// what was typed; a round deleted that it does not hold, one restored that it does; and, from
// the oldest on while each
// has landed (a resend after a lost answer), a change whose round holds its entry, a close
// that left the match as it says.
function landedOf(pending, server) {
  const deleted = new Set(server.deleted_keys);
  const at = new Map(server.numbers.map((number, k) => [number, k]));
  const holds = (record) => at.has(record.number) && stable(server.document.rounds[at.get(record.number)]) === stable(record.entry);
  const landed = [];
  let before = true; // every record before this one landed
  for (const record of pending) {
    const done = {
      round: () => (server.keys.includes(record.key) || deleted.has(record.key)) && !differs(record, server),
      delete: () => !at.has(record.number),
      restore: () => at.has(record.number),
      change: () => before && holds(record),
      close: () => before && Boolean(server.document.closed) === record.closed,
    }[record.kind || "round"]();
    if (done) landed.push(record);
    before = before && done;
  }
  return landed;
}

// Posts a form kept on the phone (fields: [[name, value], ...]) with its own CSRF token.
function postForm(url, form, fields) {
  const token = (fields.find(([name]) => name === "csrfmiddlewaretoken") || [])[1] || csrf();
  return fetch(url, {
    method: "POST", body: form, credentials: "same-origin", redirect: "manual",
    headers: { "X-CSRFToken": token },
  });
}

// Why the server refused a form, as it says so (games/views.py): the message of the event of
// its HX-Trigger header.
function refusal(response, event) {
  const events = JSON.parse(response.headers.get("HX-Trigger") || "{}");
  return events[event] ? events[event].message : "";
}

// Where a waiting round or change is sent (games/urls.py).
function urlOf(record) {
  const match = `/m/${phone.publicId}/`;
  return {
    round: `${match}rounds/`, change: `${match}rounds/${record.number}/`,
    delete: `${match}rounds/${record.number}/delete/`,
    restore: `${match}rounds/${record.number}/restore/`, close: `${match}close/`,
  }[record.kind || "round"];
}

// Sends one round or change as its form was typed (a round under its key), at the version the
// server is at: null once stored, else why the server refused it (the saveRefused event).
async function post(record, version) {
  const form = new URLSearchParams();
  record.fields.forEach(([name, value]) => {
    if (name !== "version" && name !== "entry_key") form.append(name, value);
  });
  if (!record.kind) form.append("entry_key", record.key);
  form.append("version", String(version));
  const response = await postForm(urlOf(record), form, record.fields);
  if (response.type === "opaqueredirect" || response.ok) return null;
  if (response.status === 422) return refusal(response, "saveRefused");
  throw new Error("the server answered " + response.status); // a 403 or 5xx: later
}

// Starts on the server the match started here, with the new-match form as it was sent here and
// the score link made here: true once the server has it (its state is the base from then on);
// false when it refused it (the startRefused event), and the scorer is told why in its words.
async function startMatch() {
  const { path, fields } = phone.base.create;
  const response = await postForm(path, new URLSearchParams(fields), fields);
  if (response.type === "opaqueredirect") {
    await keep(await fetchState());
    return true;
  }
  if (response.status !== 409 && response.status !== 422) {
    throw new Error("the server answered " + response.status); // a 403, 429 or 5xx: later
  }
  askStart(refusal(response, "startRefused")).then(() => sync(true));
  return false;
}

async function finish() {
  phone.pending = [];
  await kept.views.drop(phone.publicId);
  endQuestion();
  if (phone.shell) location.reload(); // the server's page of the match, now that it has it
  else await serverScreen();
}

// Over the server's screen as it is now, the question about record; the answer comes later.
// A change or delete is asked about the round where the server has it now; a change to a round
// another phone deleted may be added as a new round instead.
async function question(record, server) {
  await serverScreen();
  const inPlace = server.numbers.includes(record.number);
  const position = inPlace ? server.numbers.indexOf(record.number) + 1 : record.position;
  const asked = { ...record, position, inPlace, addAs: server.numbers.length + 1 };
  ask(asked).then((adding) => decide(record, adding && { inPlace }));
}

function decide(record, adding) {
  serial(async () => {
    if (adding) {
      Object.assign(record, { ask: false, why: [], refused: "" });
      if (record.kind === "change" && !adding.inPlace) {
        Object.assign(record, { kind: undefined, key: newKey() }); // a new round, as typed
      }
      await kept.pending.put(record);
    } else {
      await kept.pending.drop(record);
    }
    endQuestion();
    if (!(await kept.pending.of(phone.publicId)).length) await finish();
  }).then(() => sync(true), warn);
}
