/* Sending the rounds entered offline, in order, once the server answers; when the match moved
   meanwhile, what to ask the scorer about each waiting round (screen.js words it). A match
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
// and server, this phone's own rounds (mine: their keys) apart, as [{what, number}].
function changesBetween(since, server, mine) {
  const said = [];
  const at = new Map(server.numbers.map((number, k) => [number, k]));
  since.numbers.forEach((number, k) => {
    if (!at.has(number)) said.push({ what: "deleted", number: k + 1 });
    else if (stable(server.document.rounds[at.get(number)]) !== stable(since.document.rounds[k])) {
      said.push({ what: "changed", number: at.get(number) + 1 });
    }
  });
  const before = new Set(since.numbers);
  const highest = Math.max(0, ...since.numbers);
  let other = Boolean(server.document.closed) !== Boolean(since.document.closed);
  server.numbers.forEach((number, k) => {
    if (before.has(number) || mine.includes(server.keys[k])) return;
    if (number > highest) said.push({ what: "entered", number: k + 1 });
    else other = true;
  });
  if (!said.length && !other) {
    // The rounds are the same: this phone's must follow them, in the order entered.
    const ours = server.keys.filter((key, k) => !before.has(server.numbers[k]));
    other = stable(ours) !== stable(mine.filter((key) => ours.includes(key)));
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
    // This phone's rounds the server holds by their keys: sent, if it holds what was typed (a
    // round the engine has not worked out yet is only what was typed, as the server read it).
    const at = new Map(server.keys.map((key, k) => [key, k]));
    const deleted = new Set(server.deleted_keys);
    const differs = (record) => Boolean(record.entry) && at.has(record.key)
      && stable(server.document.rounds[at.get(record.key)]) !== stable(record.entry);
    const landed = phone.pending.filter((record) => (at.has(record.key) || deleted.has(record.key)) && !differs(record));
    const rest = phone.pending.filter((record) => !landed.includes(record));
    const changes = changesBetween(phone.base, server, phone.pending.map((record) => record.key));
    for (const record of rest.filter(differs)) {
      changes.push({ what: "differs", number: at.get(record.key) + 1 });
      record.key = newKey(); // the server holds its key: added, it is a new round
    }
    for (const record of landed) await kept.pending.drop(record);
    await keep(server); // this phone's rounds that landed are now the server's
    phone.pending = rest;
    if (changes.length) {
      // The match moved: every waiting round is the scorer's to add or drop.
      for (const record of rest) {
        Object.assign(record, { ask: true, why: changes, refused: "" });
        await kept.pending.put(record);
      }
      return question(rest[0], server);
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

// Sends one round as its form was typed, under its key: null once stored, else why the server
// refused it (the saveRefused event).
async function post(record, version) {
  const form = new URLSearchParams();
  record.fields.forEach(([name, value]) => {
    if (name !== "version" && name !== "entry_key") form.append(name, value);
  });
  form.append("entry_key", record.key);
  form.append("version", String(version));
  const response = await postForm(`/m/${phone.publicId}/rounds/`, form, record.fields);
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
async function question(record, server) {
  await serverScreen();
  ask({ ...record, addAs: server.numbers.length + 1 }).then((adding) => decide(record, adding));
}

function decide(record, adding) {
  serial(async () => {
    if (adding) {
      Object.assign(record, { ask: false, why: [], refused: "" });
      await kept.pending.put(record);
    } else {
      await kept.pending.drop(record);
    }
    endQuestion();
    if (!(await kept.pending.of(phone.publicId)).length) await finish();
  }).then(() => sync(true), warn);
}
