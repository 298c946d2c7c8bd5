/* The matches this phone keeps for scoring with no network (kept.js: each score link opened,
   each match started here) that the page does not list, listed after the others: on a home or
   History page kept from before they were opened or started, or not yet on the server. */
import { bases } from "./kept.js";

const place = document.querySelector("[data-kept-matches]");
const model = document.querySelector("template[data-kept-match]");

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
  item.querySelector("small").textContent = base.create ? place.dataset.unsent : place.dataset.kept;
  return item;
}

async function list() {
  const listed = new Set(Array.from(document.querySelectorAll("a.match-link"), (a) => new URL(a.href).pathname));
  const missing = (await bases.all()).filter((base) => !listed.has(`/m/${base.public_id}/`));
  if (!missing.length) return;
  const words = { games: JSON.parse(place.dataset.games), separator: place.dataset.separator };
  place.append(...missing.map((base) => link(base, words)));
  place.hidden = false;
  for (const none of document.querySelectorAll("[data-no-matches]")) none.hidden = true;
}

if (place && model && window.indexedDB) list().catch((error) => console.warn("offline:", error));
