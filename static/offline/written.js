/* The rounds this phone wrote to its match (saved, or sent from offline) as the server took
   them, kept in localStorage: when the server's state later holds one of them with other
   values, another phone changed it, and the scorer is told (screen.js). A round this phone
   changes or deletes itself is forgotten first, so its own change is never told. */
import { stable } from "./outbox.js";
import { phone } from "./state.js";

const key = () => "wrote:" + phone.publicId;
const read = () => JSON.parse(localStorage.getItem(key()) || "{}");
const write = (rounds) => localStorage.setItem(key(), JSON.stringify(rounds));

// Round number, as the server took it from this phone.
export function wrote(number, entry) {
  if (phone.publicId) write({ ...read(), [number]: stable(entry) });
}

// Round number is being changed or deleted by this phone.
export function forget(number) {
  const rounds = read();
  if (!(number in rounds)) return;
  delete rounds[number];
  write(rounds);
}

// The numbers of this phone's rounds that state (the server's) holds with other values; they
// are forgotten once told.
export function changedElsewhere(state) {
  if (!phone.publicId || !state.document) return [];
  const rounds = read();
  const at = new Map(state.numbers.map((number, k) => [number, k]));
  const changed = Object.keys(rounds).map(Number)
    .filter((number) => at.has(number) && stable(state.document.rounds[at.get(number)]) !== rounds[number]);
  changed.forEach((number) => delete rounds[number]);
  if (changed.length) write(rounds);
  return changed;
}
