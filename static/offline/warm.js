/* A match's score link on a phone whose engine was warm before (its files are kept): the
   engine's runtime starts loading at once, while the page is still being read (an async module
   in the page's head), and offline.js, which runs once the page is read, finds it started
   (engine.js is one instance per page). Reopened offline, the page scores sooner. */
import { manifest, possible, prepare, start } from "./engine.js";

const scoring = /^\/m\/[^/]+\/$/.test(location.pathname);
if (scoring && localStorage.getItem("engine:warm") === "1") {
  prepare(); // its script loads meanwhile
  manifest().then((files) => possible(files) && start(files)).catch((error) => console.warn("offline:", error));
}
