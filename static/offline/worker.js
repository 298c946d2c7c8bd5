/* The phone's scoring engine: Pyodide running games/rules/ (and the templates that draw the match
   screen) off the page's thread. static/offline/engine.js starts it when the page is idle and
   asks it to draw; see static/offline/phone.py for what each call does.

   A cold start loads the runtime, unpacks the bundles and sets the engine up; after its first
   call (the imports and templates that drawing needs are then loaded) the worker keeps a memory
   snapshot of Python in the phone's Cache Storage, keyed by the runtime's version and the
   bundles' digests. The next start loads that snapshot instead (Pyodide's _loadSnapshot, pinned
   with the runtime); a snapshot that fails to load in any way is dropped and the start is cold.

   Messages in:  {id, call: "start", args: {runtime, bundles}}, then {id, call, args: JSON text}
                 for call in body, save, preview, score.
   Messages out: {id, result} (JSON text, or for start "cold" or "snapshot") or {id, error}. */
"use strict";
const SNAPSHOTS = "engine-snapshot";
let phone = null;
let starting = null;
let snapshot = null; // after a cold start: makes and keeps the snapshot once

async function fetchBundle(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ": " + response.status);
  return response.arrayBuffer();
}

// The snapshot's key: one per runtime (its folder names its version) and set of bundles.
const snapshotKey = ({ runtime, bundles }) =>
  new URL(runtime + "snapshot?" + bundles.map((url) => url.split("/").pop()).join("&"), self.location).href;

// The runtime, from the snapshot when one is given. The standard library is compiled
// (scripts/compile-stdlib.js): nothing to compile at each start.
const loadRuntime = (runtime, options) => self.loadPyodide({
  indexURL: runtime, fullStdLib: false, stdLibURL: runtime + "python_stdlib_compiled.zip", ...options,
});

function unpack(pyodide, archives) {
  for (const archive of archives) pyodide.unpackArchive(archive, "zip", { extractDir: "/offline" });
}

// From the kept snapshot: Python's memory as it was after the first call of a cold start (the
// engine set up and imported); the bundles' files are unpacked again (files are not in it).
async function fromSnapshot(runtime, kept, archives, lap) {
  const pyodide = await loadRuntime(runtime, { _loadSnapshot: kept.arrayBuffer() });
  lap("runtime");
  unpack(pyodide, await archives);
  lap("bundles");
  const restored = pyodide.globals.get("phone");
  if (!restored || !restored.ready) throw new Error("the snapshot holds no engine");
  lap("setup");
  return restored;
}

async function cold(runtime, archives, lap) {
  const pyodide = await loadRuntime(runtime, { _makeSnapshot: true });
  lap("runtime");
  unpack(pyodide, await archives);
  lap("bundles");
  pyodide.runPython('import sys\nsys.path.insert(0, "/offline")\nimport phone\nphone.setup("/offline")');
  lap("setup");
  return pyodide;
}

// Keeps the snapshot of a cold start (only this one, for this runtime and these bundles).
async function keepSnapshot(pyodide, key) {
  const begun = performance.now();
  const memory = pyodide.makeMemorySnapshot();
  const cache = await caches.open(SNAPSHOTS);
  for (const request of await cache.keys()) await cache.delete(request);
  await cache.put(key, new Response(memory, { headers: { "Content-Type": "application/octet-stream" } }));
  performance.measure("snapshot kept", { start: begun });
}

// Starts the runtime and the engine. Each step, and each call after, is a performance.measure
// in this worker's timeline (the browser's profiler shows them; bench/phone_offline reads them);
// "start: snapshot" or "start: cold" says which start it was.
async function start(manifest) {
  const begun = performance.now();
  let clock = begun;
  const lap = (name) => { performance.measure(name, { start: clock }); clock = performance.now(); };
  const key = snapshotKey(manifest);
  const opened = self.caches ? caches.open(SNAPSHOTS).catch(() => null) : Promise.resolve(null);
  const keptSnapshot = opened.then((cache) => cache && cache.match(key)).catch(() => null); // read meanwhile
  importScripts(manifest.runtime + "pyodide.js");
  const archives = Promise.all(manifest.bundles.map(fetchBundle)); // fetched while the runtime loads
  const cache = await opened;
  const kept = await keptSnapshot;
  let path = "cold";
  if (kept) {
    try {
      phone = await fromSnapshot(manifest.runtime, kept, archives, lap);
      path = "snapshot";
    } catch (error) {
      console.warn("engine snapshot not used:", error);
      await cache.delete(key);
      clock = performance.now();
    }
  }
  if (!phone) {
    const pyodide = await cold(manifest.runtime, archives, lap);
    phone = pyodide.globals.get("phone");
    if (cache) snapshot = () => keepSnapshot(pyodide, key).catch((error) => console.warn("no engine snapshot:", error));
  }
  performance.measure("start: " + path, { start: begun });
  return path;
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
    if (snapshot && call !== "start") {
      const keep = snapshot;
      snapshot = null;
      await keep();
    }
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message || error) });
  }
};
