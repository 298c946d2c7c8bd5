/* Background Sync, where the browser has it (Chromium): there the service worker is /sw.js as a
   module with this one imported (games/offline.py, registered by offline.js). When a page kept
   something to send (outbox.js sendLater) and the browser is online again, the browser wakes
   the service worker, which sends what waits for every match as Home does, even with no page
   of the app open, and tells the open pages what it sent (Home and History say it, listed.js);
   a match whose page must ask the scorer stays for it. A sending that fails (no answer from the
   server) is tried again later by the browser. */
import { SEND_TAG, sendAll } from "./outbox.js";

async function sendAndTell() {
  const outcome = await sendAll();
  for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage({ sent: outcome });
}

self.addEventListener("sync", (event) => {
  if (event.tag === SEND_TAG) event.waitUntil(sendAndTell());
});
