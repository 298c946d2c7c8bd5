/* What the phone keeps in IndexedDB, so that closing the browser loses nothing: bases (the
   match as the server had it), pending (rounds entered here and not yet sent) and views (the
   screen last drawn while rounds wait). */
let opened = null;

function database() {
  opened = opened || new Promise((resolve, reject) => {
    const request = indexedDB.open("scorekeeper-offline", 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore("bases", { keyPath: "public_id" });
      db.createObjectStore("views", { keyPath: "public_id" });
      db.createObjectStore("pending", { keyPath: "seq", autoIncrement: true }).createIndex("match", "match");
    };
    request.onsuccess = () => resolve(request.result);
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
