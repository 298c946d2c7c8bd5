/* The rounds this phone wrote to its match (entered or changed, online or sent from offline) as
   the server took them, kept in localStorage: when the server's state later holds one of them
   with other values, another phone changed it, and the scorer is told (screen.js). A round this
   phone changes, from the match page or the round's own page (which loads this module alone),
   is this phone's as the server then holds it: its own change is never told. A round it deletes
   (the Undo too) is forgotten. */
import { stable } from "./outbox.js";
import { phone } from "./state.js";

const key = (publicId) => "wrote:" + publicId;
const read = (publicId = phone.publicId) => JSON.parse(localStorage.getItem(key(publicId)) || "{}");
const write = (rounds, publicId = phone.publicId) => localStorage.setItem(key(publicId), JSON.stringify(rounds));

// Round number, as the server took it from this phone.
export function wrote(number, entry) {
  if (phone.publicId) write({ ...read(), [number]: stable(entry) });
}

// A form that changes round number of the match publicId (from the match at version: once the
// server is past that version, what the round holds is this phone's; a change is made only at
// the version it was typed at, and one refused was said on its page), or deletes it.
document.addEventListener("submit", (event) => {
  const form = event.target;
  const round = form.action && /^\/m\/([^/]+)\/rounds\/(\d+)\/(delete\/)?$/.exec(new URL(form.action).pathname);
  if (!round) return;
  const [, publicId, number, deleting] = round;
  const rounds = read(publicId);
  if (deleting || !form.elements.version) delete rounds[number];
  else rounds[number] = { after: Number(form.elements.version.value) };
  write(rounds, publicId);
}, true);

// The rounds of this phone's that state (the server's) holds with other values, as [{number,
// position}]; they are forgotten once told.
export function changedElsewhere(state) {
  if (!phone.publicId || !state.document) return [];
  const rounds = read();
  const at = new Map(state.numbers.map((number, k) => [number, k]));
  const changed = [];
  for (const number of Object.keys(rounds).map(Number).filter((number) => at.has(number))) {
    const held = stable(state.document.rounds[at.get(number)]);
    const mine = rounds[number];
    if (typeof mine !== "string") {
      if (state.version > mine.after) rounds[number] = held; // this phone's change, made
    } else if (held !== mine) {
      changed.push({ number, position: at.get(number) + 1 });
      delete rounds[number];
    }
  }
  write(rounds);
  return changed;
}
