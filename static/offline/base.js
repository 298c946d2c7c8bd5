/* The base: the match as the server had it when this phone last saw it; rounds entered on the
   phone follow it until they are sent. Taken from the screen the server drew (a page, a save's
   answer) or from offline.json, and kept in IndexedDB. */
import { bases } from "./kept.js";
import { stateOf } from "./outbox.js";
import { tellChanged, update } from "./screen.js";
import { phone, serial, warn } from "./state.js";
import { changedElsewhere, wrote } from "./written.js";

// The server's state becomes the base; a round of this phone's it holds with other values is
// told (another phone changed it).
export function keep(state) {
  phone.base = state;
  const changed = changedElsewhere(state);
  if (changed.length) tellChanged(changed);
  return bases.put(state);
}

export async function fetchState() {
  const state = await stateOf(phone.publicId);
  phone.reachable = true;
  return state;
}

// The state block the server draws in every match body for a scorer (games/templatetags/offline.py).
function pageState() {
  const block = document.getElementById("offline-state");
  return block ? JSON.parse(block.content.textContent) : null;
}

// The state the server drew the screen from becomes the base, unless rounds wait (they follow
// the base they were entered on) or the base kept is newer (a page kept from before).
export function takePageState() {
  const { base } = phone;
  let state = pageState();
  if (!phone.publicId || !state || phone.pending.length || (base && base.version > state.version)) return;
  if ("after" in state) { // a save's answer: the round it added to the version saved from
    wrote(state.number, state.round);
    if (!base || base.version !== state.after) { takeState(); return; }
    state = {
      public_id: base.public_id, day: base.day, version: state.version, numbers: [...base.numbers, state.number],
      last: state.number, document: { ...base.document, rounds: [...base.document.rounds, state.round] },
      deleted: base.deleted || [],
    };
  }
  keep(state).catch(warn);
}

// The server's state, asked for (a live update brings only the scoreboard).
export function takeState() {
  if (!phone.publicId) return Promise.resolve();
  return serial(async () => {
    if (phone.pending.length) return;
    const state = await fetchState();
    if (phone.pending.length) return;
    await keep(state);
    update();
  }).catch(warn);
}
