/* Background Sync, where the browser has it (Chromium): there the service worker is /sw.js as a
   module with this one imported (games/offline.py, registered by offline.js). When a page kept
   something to send (outbox.js sendLater) and the browser is online again, the browser wakes
   the service worker, which sends what waits for every match as Home does, even with no page
   of the app open. What it sent is kept (kept.js told) for the next page of the app to say,
   once: the open pages are told at once (Home, History and a match page say it), else the
   next one opened says it was sent while the app was closed. A match whose page must ask the
   scorer stays for it. A sending that fails (no answer from the server) is tried again later by
   the browser. */
import { told } from "./kept.js";
import { SEND_TAG, sendAll } from "./outbox.js";

async function sendAndTell() {
  const outcome = await sendAll();
  const pages = await self.clients.matchAll({ type: "window" });
  if (outcome.sent.length) await told.add({ closed: !pages.length, sent: outcome.sent });
  for (const page of pages) page.postMessage({ sent: outcome });
}

self.addEventListener("sync", (event) => {
  if (event.tag === SEND_TAG) event.waitUntil(sendAndTell());
});
