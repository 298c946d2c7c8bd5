/* What waits on this phone to be sent, for every match it keeps, and the sending of a match
   that needs no one's answer: from any page of the app (Home, History, another match's page),
   as soon as the server answers. A match whose rounds the server can take as they are is sent
   in order, each round and change once (send.js's rules, which it shares from here); a match
   that moved on the server meanwhile, or whose round the server refused, is left waiting for
   its own page, which asks the scorer (send.js). Nothing here draws on the screen or reads
   the page: the service worker sends with it too (sw_sync.js). */
import * as kept from "./kept.js";

// The page's CSRF token (in the service worker, none: a form kept on the phone has its own).
export function csrf() {
  const input = globalThis.document && document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

// JSON with its keys sorted: two entries compare equal when they hold the same values.
export function stable(value) {
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

// A round of this phone's the server holds by its key with other values than it was worked
// out with (a round the engine has not worked out yet is only what was typed).
export function differs(record, server) {
  const k = record.kind ? -1 : server.keys.indexOf(record.key);
  return k >= 0 && Boolean(record.entry) && stable(server.document.rounds[k]) !== stable(record.entry);
}

// What waits that the server has already: a round it holds by its key (or deleted since) with
// what was typed; a round deleted that it does not hold, one restored that it does; and, from
// the oldest on while each has landed (a resend after a lost answer), a change whose round
// holds its entry, a close that left the match as it says.
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
      join: () => before && server.document.players.includes(record.name),
      leave: () => before && Object.hasOwn(server.document.left || {}, record.name),
    }[record.kind || "round"]();
    if (done) landed.push(record);
    before = before && done;
  }
  return landed;
}

// What the server's state says of what waits on the phone since base: the records it has
// already (landed), the rest, and what another phone did meanwhile (changes, as changesBetween).
export function compared(pending, base, server) {
  const landed = landedOf(pending, server);
  const rest = pending.filter((record) => !landed.includes(record));
  const ours = new Set(landed.filter((record) => record.kind)
    .map((record) => (record.kind === "close" ? "closed" : record.number)));
  const keys = pending.filter((record) => !record.kind).map((record) => record.key);
  // A version for each record that landed, and no other: nothing else changed meanwhile (a
  // join or leave of this phone's moves every round to its new seats, which is no change).
  const alone = server.version - base.version === landed.length;
  return { landed, rest, changes: alone ? [] : changesBetween(base, server, keys, ours) };
}

// The match as the server has it now (its offline state).
export async function stateOf(publicId) {
  const response = await fetch(`/m/${publicId}/offline.json`, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) throw new Error("state: " + response.status);
  return response.json();
}

// Posts a form kept on the phone (fields: [[name, value], ...]) with its own CSRF token.
export function postForm(url, form, fields) {
  const token = (fields.find(([name]) => name === "csrfmiddlewaretoken") || [])[1] || csrf();
  return fetch(url, {
    method: "POST", body: form, credentials: "same-origin", redirect: "manual",
    headers: { "X-CSRFToken": token },
  });
}

// Why the server refused a form, as it says so (games/views.py): the message of the event of
// its HX-Trigger header.
export function refusal(response, event) {
  const events = JSON.parse(response.headers.get("HX-Trigger") || "{}");
  return events[event] ? events[event].message : "";
}

// Where a waiting round or change of the match publicId is sent (games/urls.py).
function urlOf(record, publicId) {
  const match = `/m/${publicId}/`;
  return {
    round: `${match}rounds/`, change: `${match}rounds/${record.number}/`,
    delete: `${match}rounds/${record.number}/delete/`,
    restore: `${match}rounds/${record.number}/restore/`, close: `${match}close/`,
    join: `${match}join/`, leave: `${match}leave/`,
  }[record.kind || "round"];
}

// Sends one round or change as its form was typed (a round under its key), at the version the
// server is at: null once stored, else why the server refused it (the saveRefused event).
export async function post(record, version, publicId) {
  const form = new URLSearchParams();
  record.fields.forEach(([name, value]) => {
    if (name !== "version" && name !== "entry_key") form.append(name, value);
  });
  if (record.key) form.append("entry_key", record.key); // a round's, a join's or a leave's
  form.append("version", String(version));
  const response = await postForm(urlOf(record, publicId), form, record.fields);
  if (response.type === "opaqueredirect" || response.ok) return null;
  if (response.status === 422) return refusal(response, "saveRefused");
  throw new Error("the server answered " + response.status); // a 403 or 5xx: later
}

// Runs work alone for the match publicId, whatever other page of the app would send it too
// (a Web Lock; where the browser has none, plain HTTP, each page sends as it can: a resend is
// harmless). With skip, work is not run (null) while another page holds the match.
export function exclusive(publicId, work, skip = false) {
  if (!navigator.locks) return work();
  return navigator.locks.request("send:" + publicId, { ifAvailable: skip }, (lock) => (lock ? work() : null));
}

// {publicId: [records]} of every match with something waiting, oldest first, and the matches
// started here the server does not have yet ({publicId: []} when nothing else waits).
export async function waiting() {
  const byMatch = {};
  for (const base of await kept.bases.all()) if (base.create) byMatch[base.public_id] = [];
  for (const record of await kept.pending.all()) (byMatch[record.match] ||= []).push(record);
  return byMatch;
}

// Sends what waits for the match publicId unless a question is to be asked: "sent" when
// nothing waits any more, "asks" when its own page must ask the scorer, null when another
// sender (a page, the service worker) sent it all meanwhile (it says so, not this one).
async function sendMatch(publicId) {
  let base = await kept.bases.get(publicId);
  if (!base) return "asks";
  if (!base.create && !(await kept.pending.of(publicId)).length) return null;
  if (base.create) {
    const { path, fields } = base.create;
    const response = await postForm(path, new URLSearchParams(fields), fields);
    if (response.type !== "opaqueredirect") {
      if (response.status === 409 || response.status === 422) return "asks"; // refused: its page says why
      throw new Error("the server answered " + response.status);
    }
    base = await stateOf(publicId);
    await kept.bases.put(base);
  }
  for (let step = 0; step < 1000; step += 1) {
    const pending = await kept.pending.of(publicId);
    if (!pending.length) break;
    if (pending.some((record) => record.ask)) return "asks"; // asked already, not answered
    const server = await stateOf(publicId);
    const { landed, rest, changes } = compared(pending, base, server);
    if (changes.length || rest.some((record) => differs(record, server))) return "asks";
    for (const record of landed) await kept.pending.drop(record);
    await kept.bases.put(server);
    base = server;
    if (!rest.length) break;
    const refused = await post(rest[0], server.version, publicId);
    if (refused !== null && (await stateOf(publicId)).version === server.version) return "asks";
  }
  await kept.views.drop(publicId);
  return "sent";
}

// Sends what waits for every match but except (the page's own, which its page sends): {sent:
// [what was sent of each match: {game, started (the match itself, started on this phone),
// records}], asks: [publicIds waiting for their page's question], answered: whether the
// server answered for any match}. A match another page is sending meanwhile is left to it.
export async function sendAll(except = null) {
  const sent = [];
  const asks = [];
  let answered = false;
  for (const [publicId, records] of Object.entries(await waiting())) {
    if (publicId === except) continue;
    const base = await kept.bases.get(publicId);
    const outcome = await exclusive(publicId, () => sendMatch(publicId), true);
    if (outcome === "sent") sent.push({ game: base.document.game, started: Boolean(base.create), records });
    if (outcome === "asks") asks.push(publicId);
    answered ||= outcome !== null;
  }
  return { sent, asks, answered };
}

// Background Sync, where the browser has it (Chromium): once it is online, the browser wakes the
// service worker to send what waits, even with no page of the app open (sw_sync.js).
export const SEND_TAG = "send-waiting";

export function sendLater() {
  if (!navigator.serviceWorker) return Promise.resolve();
  return navigator.serviceWorker.ready
    .then((registration) => registration.sync && registration.sync.register(SEND_TAG))
    .catch(() => {}); // refused (no permission): the pages send, as ever
}

// What records count, in words ({rounds, changes, and}: each count's words for 1 and for more,
// games/templatetags/offline.py waiting_words): "2 rounds and 1 change".
export function counted(records, words) {
  const say = (forms, n) => (n === 1 ? forms[0] : forms[1]).replace("%(count)s", n);
  const changes = records.filter((record) => record.kind).length;
  const rounds = records.length - changes;
  const parts = [];
  if (rounds) parts.push(say(words.rounds, rounds));
  if (changes) parts.push(say(words.changes, changes));
  if (parts.length < 2) return parts[0] || "";
  return words.and.replace("%(first)s", parts[0]).replace("%(second)s", parts[1]);
}

// The rounds of a kept match as this phone has them (records: what waits for it): the server's
// as last seen, less those deleted here, and those restored here; with added, the new ones too.
export function roundsHere(base, records, added = true) {
  const count = (kind) => records.filter((record) => record.kind === kind).length;
  return base.numbers.length - count("delete") + count("restore") + (added ? count(undefined) : 0);
}

// "2 matches" in words.
export function matches(count, words) {
  return (count === 1 ? words.matches[0] : words.matches[1]).replace("%(count)s", count);
}

// What was sent (sendAll's sent), in words, a game's matches together: "6 rounds of Least
// Score, the match of Gongzhu started on this phone, with 2 rounds".
function sentWords(sent, words) {
  const byGame = new Map();
  for (const { game, records } of sent.filter((match) => !match.started)) {
    byGame.set(game, [...(byGame.get(game) || []), ...records]);
  }
  const name = (game) => words.games[game] || game;
  const said = [...byGame].map(([game, records]) => words.of.replace("%(what)s", counted(records, words))
    .replace("%(game)s", name(game)));
  for (const { game, records } of sent.filter((match) => match.started)) {
    const match = words.started.replace("%(game)s", name(game));
    const what = counted(records, words);
    said.push(what ? words.startedWith.replace("%(match)s", match).replace("%(what)s", what) : match);
  }
  return said.join(words.separator);
}

// The lines a page says what was sent with ({sent, closed}: sendAll's sent, by a page or by
// the service worker, and what the service worker sent with no page of the app open), in its
// words (said: sent and sentClosed, "Sent to the server: %(what)s").
export function sentLines({ sent, closed }, said, words) {
  const lines = [];
  if (closed.length) lines.push(said.sentClosed.replace("%(what)s", sentWords(closed, words)));
  if (sent.length) lines.push(said.sent.replace("%(what)s", sentWords(sent, words)));
  return lines;
}
