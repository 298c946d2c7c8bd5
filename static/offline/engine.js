/* The engine, in a worker (worker.js: Pyodide running games/rules/ and the match screen's
   templates through static/offline/phone.py). Each call is a message, answered by its id. */
const calls = { next: 0, waiting: new Map() }; // id -> {resolve, reject}
const engine = { worker: null, started: null };

// Whether this browser can run the engine, and the server ships its runtime.
export const possible = (manifest) => Boolean(manifest.runtime && window.Worker && window.WebAssembly);

// Starts the worker once; resolves when the runtime and the bundles are loaded.
export function start(manifest) {
  if (!engine.started) {
    engine.worker = new Worker(new URL("worker.js", import.meta.url));
    engine.worker.onmessage = (event) => {
      const { id, result, error } = event.data;
      const waiting = calls.waiting.get(id);
      calls.waiting.delete(id);
      if (error) waiting.reject(new Error(error));
      else waiting.resolve(result);
    };
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
