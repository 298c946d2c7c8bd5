/* Starting a match with no network (see games/offline.py for the whole design): the new-match
   form, checked on the phone by the server's own form (phone.py new_match), which draws it again
   with its messages if it refuses it. The phone makes the match's score link (18 random bytes,
   as the server makes its own), keeps the new match as its base in IndexedDB (kept.js), the
   state offline.json would give, marked as not on the server yet with the form to send, and
   opens the score link: the service worker answers it with the match page with no match in it
   (sw.js), into which offline.js draws the match. When the network is back, send.js starts the
   match on the server with that form, then sends its rounds.

   On a phone that has scored with no network before (the engine's files are kept), the form is
   posted from here, online too, with the score link made here: if the network fails it, the
   match is started on the phone instead (the same link makes a resend harmless). Elsewhere the
   browser posts the form as ever. With no network the engine starts while the form is filled
   in, and draws the new match here: its page shows that drawing at once (offline.js) while its
   own engine starts. */
import * as engine from "./engine.js";
import { bases, views } from "./kept.js";
import { sendLater } from "./outbox.js";
import { newKey, phone, warn } from "./state.js";

const starting = document.querySelector("[data-starting]");
const notStarted = document.querySelector("[data-not-started]");

const canStartHere = () => Boolean(phone.warmBefore && window.indexedDB
  && navigator.serviceWorker && navigator.serviceWorker.controller);

// The engine, started once; <html data-offline="ready"> once it is warm.
const started = { engine: null };
function startEngine() {
  started.engine ||= (async () => {
    const files = await engine.manifest();
    if (!engine.possible(files)) throw new Error("no engine on this phone");
    await engine.start(files);
    document.documentElement.dataset.offline = "ready";
  })().catch((error) => {
    started.engine = null; // tried again at Start
    throw error;
  });
  return started.engine;
}

// With no network, or no answer from the server (this page is the service worker's copy), the
// engine warms up while the form is filled in.
function warmUp() {
  const away = !navigator.onLine || "keptAt" in document.documentElement.dataset;
  if (canStartHere() && away) startEngine().catch(warn);
}
if (document.readyState === "complete") warmUp();
else window.addEventListener("load", warmUp, { once: true });
window.addEventListener("offline", warmUp);

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id !== "new-match" || !canStartHere()) return;
  event.preventDefault();
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  notStarted.hidden = true;
  submit(form).catch((error) => {
    warn(error);
    notStarted.hidden = false;
  }).finally(() => {
    button.disabled = false;
    starting.hidden = true;
  });
});

async function submit(form) {
  form.elements.public_id.value = newKey(18);
  const fields = Array.from(new FormData(form).entries()).filter(([, value]) => typeof value === "string");
  if (navigator.onLine) {
    try {
      const response = await fetch(location.pathname, {
        method: "POST", body: new URLSearchParams(fields), credentials: "same-origin",
      });
      if (response.redirected && response.ok) return location.assign(response.url);
      // The server's answer is a page (the form with why it refused it, say): the browser posts
      // the form again to show it (the same start again is harmless).
      return form.submit();
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // fetch: the network failed
    }
  }
  return startHere(form, fields);
}

// The form checked by the engine: the new match kept, drawn, and its score link opened, else
// the form drawn again with why.
async function startHere(form, fields) {
  starting.hidden = false;
  await startEngine();
  const game = location.pathname.split("/")[2];
  const csrf = form.elements.csrfmiddlewaretoken.value;
  const asked = { game, form: fields, csrf, language: phone.language };
  const answer = JSON.parse(await engine.call("new_match", JSON.stringify(asked)));
  if (answer.html) {
    form.outerHTML = answer.html;
    document.dispatchEvent(new Event("change")); // new_match.js shows the defaults again
    const error = document.querySelector("#new-match .error");
    if (error) error.scrollIntoView({ block: "center" });
    return;
  }
  const publicId = form.elements.public_id.value;
  const base = {
    public_id: publicId, version: 0, document: { ...answer.match, rounds: [], closed: false },
    numbers: [], last: 0, keys: [], deleted: [], deleted_keys: [], create: { path: location.pathname, fields },
  };
  const drawing = { state: base, csrf, entry_key: newKey(), language: phone.language };
  const drawn = JSON.parse(await engine.call("body", JSON.stringify(drawing)));
  await Promise.all([bases.put(base), views.put(publicId, drawn.html)]);
  await sendLater();
  location.assign(`/m/${publicId}/`);
}
