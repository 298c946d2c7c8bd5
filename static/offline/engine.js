/* The engine, in a worker (worker.js: Pyodide running games/rules/ and the match screen's
   templates through static/offline/phone.py). Each call is a message, answered by its id. */
const calls = { next: 0, waiting: new Map() }; // id -> {resolve, reject}
const engine = { worker: null, started: null };

// Whether this browser can run the engine, and the server ships its runtime.
export const possible = (manifest) => Boolean(manifest.runtime && window.Worker && window.WebAssembly);

// The offline manifest (the runtime's and the bundles' addresses), asked for once a page.
const asked = { manifest: null };
export function manifest() {
  asked.manifest ||= fetch("/offline/manifest.json", { credentials: "same-origin" }).then((response) => response.json());
  return asked.manifest;
}

// The runtime's files worker.js loads (pyodide.js, and what it fetches with the compiled
// standard library worker.js names).
const RUNTIME_FILES = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json",
  "python_stdlib_compiled.zip"];

// The service worker fetches and keeps the runtime and the bundles too (sw.js): the download,
// once started, finishes even if this page is left; the worker's own fetches wait for it.
function keepDownloading(manifest) {
  const files = [...RUNTIME_FILES.map((name) => manifest.runtime + name), ...manifest.bundles];
  navigator.serviceWorker?.ready.then((registration) => registration.active?.postMessage({ keep: files }));
}

// The worker, made once: by start, or before it by a page that will start it (warm.js), so
// that its script loads while the manifest is fetched.
export function prepare() {
  if (!engine.worker) {
    engine.worker = new Worker(new URL("worker.js", import.meta.url));
    engine.worker.onmessage = (event) => {
      const { id, result, error } = event.data;
      const waiting = calls.waiting.get(id);
      calls.waiting.delete(id);
      if (error) waiting.reject(new Error(error));
      else waiting.resolve(result);
    };
  }
}

// Starts the worker once; resolves when the runtime and the bundles are loaded.
export function start(manifest) {
  if (!engine.started) {
    keepDownloading(manifest);
    prepare();
    engine.started = call("start", { runtime: manifest.runtime, bundles: manifest.bundles });
  }
  return engine.started;
}

// phone.py's function name with its JSON text argument: its JSON text answer. Tests import
// this module and call it too (call("score", document)), on the worker the page started.
export function call(name, args) {
  return new Promise((resolve, reject) => {
    const id = (calls.next += 1);
    calls.waiting.set(id, { resolve, reject });
    engine.worker.postMessage({ id, call: name, args });
  });
}
