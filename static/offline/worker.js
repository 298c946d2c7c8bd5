/* The phone's scoring engine: Pyodide running games/rules/ (and the templates that draw the match
   screen) off the page's thread. static/offline/offline.js starts it when the page is idle and
   asks it to draw; see static/offline/phone.py for what each call does.

   Messages in:  {id, call: "start", args: {runtime, bundles}}, then {id, call, args: JSON text}
                 for call in body, save, preview, score.
   Messages out: {id, result} (JSON text, or true for start) or {id, error}. */
"use strict";
let phone = null;
let starting = null;

// Starts the runtime and the engine; answers how long each step took (ms).
async function start({ runtime, bundles }) {
  const times = {};
  let clock = performance.now();
  const lap = (name) => { const now = performance.now(); times[name] = Math.round(now - clock); clock = now; };
  importScripts(runtime + "pyodide.js");
  const pyodide = await self.loadPyodide({ indexURL: runtime, fullStdLib: false });
  lap("runtime");
  const archives = await Promise.all(bundles.map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(url + ": " + response.status);
    return response.arrayBuffer();
  }));
  archives.forEach((archive) => pyodide.unpackArchive(archive, "zip", { extractDir: "/offline" }));
  lap("bundles");
  pyodide.runPython('import sys\nsys.path.insert(0, "/offline")\nimport phone\nphone.setup("/offline")');
  phone = pyodide.globals.get("phone");
  lap("setup");
  return times;
}

self.onmessage = async (event) => {
  const { id, call, args } = event.data;
  try {
    let result;
    if (call === "start") {
      starting = starting || start(args);
      result = await starting;
    } else {
      await starting;
      const begun = performance.now();
      result = phone[call](args);
      self.lastCall = performance.now() - begun;
    }
    self.postMessage({ id, result, ms: self.lastCall });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message || error) });
  }
};
