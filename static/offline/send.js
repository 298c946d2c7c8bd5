/* Sending the rounds entered offline and the changes made offline (a round changed, deleted or
   restored, the match closed or reopened), in order, once the server answers; when the match moved
   meanwhile, what to ask the scorer about each waiting round or change (screen.js words it). A match
   started on this phone with no network (start.js) is started on the server first, with the
   form kept and its score link (a resend is harmless). */
import { fetchState, keep } from "./base.js";
import * as engine from "./engine.js";
import * as kept from "./kept.js";
import { compared, differs, exclusive, post, postForm, refusal } from "./outbox.js";
import { ask, askStart, asking, endQuestion, serverScreen, update } from "./screen.js";
import { newKey, phone, serial, unsent, warn } from "./state.js";
import { wrote } from "./written.js";

const RETRY_MS = 10000;
const sending = { run: null, lastFailure: 0 };

// Sends what waits (now when forced, else unless a failure was recent or the scorer is asked).
export function sync(force) {
  if (!phone.publicId || sending.run) return sending.run;
  if (!force && (Date.now() - sending.lastFailure < RETRY_MS || asking())) return null;
  sending.run = serial(() => exclusive(phone.publicId, send)).catch((error) => {
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
    const { landed, rest, changes } = compared(phone.pending, phone.base, server);
    for (const record of rest.filter((waiting) => differs(waiting, server))) {
      changes.push({ what: "differs", number: server.keys.indexOf(record.key) + 1 });
      record.key = newKey(); // the server holds its key: added, it is a new round
    }
    for (const record of landed) {
      const k = record.kind ? -1 : server.keys.indexOf(record.key);
      if (k >= 0) wrote(server.numbers[k], server.document.rounds[k]); // this phone's round now
      if (record.kind === "change") wrote(record.number, record.entry); // and this one, changed
      await kept.pending.drop(record);
    }
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
    const refused = await post(next, server.version, phone.publicId);
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
  // A change's round as the server has it (none when deleted meanwhile); for a new round, the
  // one another phone entered where it was to go.
  const theirs = await theirSide(record, server, record.kind ? inPlace && position : record.position);
  const asked = { ...record, position, inPlace, addAs: server.numbers.length + 1, theirs };
  ask(asked).then((adding) => decide(record, adding && { inPlace }));
}

// The other side of the question: the round the server holds where this phone's round or
// change goes ({position, lines}: what it scores, worked out by the engine), or null (no such
// round, a close, or no engine on this phone).
async function theirSide(record, server, position) {
  if (!position || record.kind === "close" || !phone.engine || position > server.numbers.length) return null;
  const asked = JSON.stringify({ state: server, position, language: phone.language });
  try {
    return { position, lines: JSON.parse(await engine.call("round_lines", asked)).html };
  } catch (error) {
    warn(error);
    return null;
  }
}

function decide(record, adding) {
  serial(async () => {
    // What changed meanwhile is said once: the questions after this one do not repeat it.
    for (const other of await kept.pending.of(phone.publicId)) {
      if (other.ask && other.seq !== record.seq && other.why.length) await kept.pending.put({ ...other, why: [] });
    }
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
