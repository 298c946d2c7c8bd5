/* Scoring on the phone: a save or a preview that the engine answers instead of the server,
   with the same form, checks, messages and screen (static/offline/phone.py draws them). */
import * as engine from "./engine.js";
import * as kept from "./kept.js";
import { asking, canAsk, notSaved, showBody, shownVersion, update } from "./screen.js";
import { csrf, newKey, phone, serial, warn } from "./state.js";

// What the engine is given: the base, the rounds waiting, and what the page would post.
function payload(extra) {
  return JSON.stringify({
    state: phone.base, pending: phone.pending.map((record) => record.entry), csrf: csrf(),
    entry_key: newKey(), language: phone.language, show_all: phone.showAll, ...extra,
  });
}

// Starts the engine; once warm, the phone can score. Its first drawing warms it up, and
// redraws a screen kept from before the state this phone last saw (never over a newer screen a
// live update brought, nor over what the scorer typed).
export async function startEngine(manifest) {
  if (!engine.possible(manifest)) return;
  await engine.start(manifest);
  await serial(async () => {
    if (!phone.base) return;
    const drawn = JSON.parse(await engine.call("body", payload()));
    const typed = document.querySelector("#entry[data-typed]");
    if (!phone.pending.length && shownVersion() < phone.base.version && !typed) showBody(drawn.html);
  });
  phone.engine = true;
  update();
}

export const canScore = () => Boolean(phone.publicId && phone.engine && phone.base);

// A save is worked out here when the phone knows it has no network, when rounds already wait
// (a new one must not overtake them) or while the scorer is asked about one; otherwise it goes
// to the server first and comes here only if the network fails it.
export function handledHere() {
  return canScore() && canAsk && (!navigator.onLine || phone.pending.length > 0 || asking());
}

function fieldsOf(requestConfig, form) {
  const data = (requestConfig && requestConfig.formData) || new FormData(form);
  return Array.from(data.entries()).filter(([, value]) => typeof value === "string");
}

// Only the latest preview matters: one asked while another is worked out replaces any still
// waiting, and a save drops them (it must not wait behind them).
const previews = { wanted: null, running: false };

export function saveHere(form, requestConfig) {
  const fields = fieldsOf(requestConfig, form);
  const key = (fields.find(([name]) => name === "entry_key") || [])[1] || newKey();
  previews.wanted = null;
  return serial(async () => {
    const answer = JSON.parse(await engine.call("save", payload({ form: fields, entry_key: key, next_key: newKey() })));
    let record = null;
    if (!answer.error) {
      record = {
        match: phone.publicId, key, fields, entry: answer.entry, version: phone.base.version,
        position: phone.base.numbers.length + phone.pending.length + 1, lines: "", at: Date.now(),
      };
      record.seq = await kept.pending.add(record);
      phone.pending.push(record);
    }
    showBody(answer.html);
    update();
    if (record) {
      // What the round scored, for the scorer to recognise it if another phone interferes.
      const breakdown = document.querySelector("#match-body .breakdown ul");
      record.lines = breakdown ? breakdown.innerHTML : "";
      kept.pending.put(record).catch(warn);
      kept.views.put(phone.publicId, answer.html).catch(warn);
    }
  }).catch((error) => {
    warn(error);
    notSaved(form);
  });
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
