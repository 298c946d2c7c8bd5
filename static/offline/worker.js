/* The phone's scoring engine: Pyodide running games/rules/ (and the templates that draw the match
   screen) off the page's thread. static/offline/engine.js starts it when the page is idle and
   asks it to draw; see static/offline/phone.py for what each call does.

   Messages in:  {id, call: "start", args: {runtime, bundles}}, then {id, call, args: JSON text}
                 for call in body, save, preview, score.
   Messages out: {id, result} (JSON text, or true for start) or {id, error}. */
"use strict";
let phone = null;
let starting = null;

async function fetchBundle(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ": " + response.status);
  return response.arrayBuffer();
}

// Starts the runtime and the engine. Each step, and each call after, is a performance.measure
// in this worker's timeline (the browser's profiler shows them; bench/phone_offline reads them).
async function start({ runtime, bundles }) {
  let clock = performance.now();
  const lap = (name) => { performance.measure(name, { start: clock }); clock = performance.now(); };
  importScripts(runtime + "pyodide.js");
  const archives = Promise.all(bundles.map(fetchBundle)); // fetched while the runtime loads
  // The standard library compiled (scripts/compile-stdlib.js): nothing to compile at each start.
  const stdLibURL = runtime + "python_stdlib_compiled.zip";
  const pyodide = await self.loadPyodide({ indexURL: runtime, fullStdLib: false, stdLibURL });
  lap("runtime");
  for (const archive of await archives) {
    pyodide.unpackArchive(archive, "zip", { extractDir: "/offline" });
  }
  lap("bundles");
  pyodide.runPython('import sys\nsys.path.insert(0, "/offline")\nimport phone\nphone.setup("/offline")');
  phone = pyodide.globals.get("phone");
  lap("setup");
  return true;
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
      performance.measure(call, { start: begun });
    }
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message || error) });
  }
};
