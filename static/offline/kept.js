/* What the phone keeps in IndexedDB, so that closing the browser loses nothing: bases (the
   match as the server had it), pending (rounds entered here and not yet sent), views (the
   screen last drawn while rounds wait) and told (what the service worker sent, until a page
   says it). */
let opened = null;

function database() {
  opened = opened || new Promise((resolve, reject) => {
    const request = indexedDB.open("scorekeeper-offline", 2);
    request.onupgradeneeded = (event) => {
      const db = request.result;
      if (event.oldVersion < 1) {
        db.createObjectStore("bases", { keyPath: "public_id" });
        db.createObjectStore("views", { keyPath: "public_id" });
        db.createObjectStore("pending", { keyPath: "seq", autoIncrement: true }).createIndex("match", "match");
      }
      if (event.oldVersion < 2) db.createObjectStore("told", { keyPath: "seq", autoIncrement: true });
    };
    request.onsuccess = () => {
      const db = request.result;
      // A newer version of the app opens it in another page: this one lets it (and opens it
      // again when it next needs it).
      db.onversionchange = () => {
        db.close();
        opened = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error);
  });
  return opened;
}

async function store(name, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    // strict: a round kept on the phone is on its disk before the screen says so
    const transaction = db.transaction(name, mode, { durability: "strict" });
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  });
}

export const bases = {
  all: () => store("bases", "readonly", (s) => s.getAll()),
  get: (publicId) => store("bases", "readonly", (s) => s.get(publicId)),
  put: (state) => store("bases", "readwrite", (s) => s.put(state)),
};

export const pending = {
  all: () => store("pending", "readonly", (s) => s.getAll()), // every match's, oldest first
  of: (publicId) => store("pending", "readonly", (s) => s.index("match").getAll(publicId)),
  add: (record) => store("pending", "readwrite", (s) => s.add(record)), // answers its seq
  put: (record) => store("pending", "readwrite", (s) => s.put(record)),
  drop: (record) => store("pending", "readwrite", (s) => s.delete(record.seq)),
};

export const views = {
  get: (publicId) => store("views", "readonly", (s) => s.get(publicId)),
  put: (publicId, html) => store("views", "readwrite", (s) => s.put({ public_id: publicId, html })),
  drop: (publicId) => store("views", "readwrite", (s) => s.delete(publicId)),
};

export const told = {
  add: (record) => store("told", "readwrite", (s) => s.add(record)),
  // What waits to be said, taken (whoever takes it says it, once).
  take: () => store("told", "readwrite", (s) => {
    const all = s.getAll();
    all.onsuccess = () => s.clear();
    return all;
  }),
};
