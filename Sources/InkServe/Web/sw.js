// The service worker: keeps the notebook's shell (its pages' HTML, CSS and modules, the manifest and
// icon) and the library's listing, so that a reload, or a note opened, while the server is out of
// reach still shows the notebook. Network first: while the server answers, every file comes from it
// and the copy kept is refreshed; only when it does not is the copy answered. Nothing but these GETs
// is touched (the API's changes, downloads, uploads and the note's socket go to the server as ever).
// The server writes VERSION and SHELL above this file (WebServiceWorker.swift): files that change make
// a new worker, which fills a cache of its own and drops the old ones.
const SHELL_CACHES = "inkwell-shell-";
const CACHE = `${SHELL_CACHES}${VERSION}`;
/** The server sends the same page for every /notes/ID: one copy serves them all. */
const NOTE_PAGE = "/assets/note.html";
const KEPT = new Set([...SHELL, "/api/library"]);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

// A new version's files replace the old ones at once. The pages the note page keeps (its own cache,
// note-last-pages.js) stay: they may have been written just before this worker took over.
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => names.filter((name) => name.startsWith(SHELL_CACHES) && name !== CACHE))
    .then((old) => Promise.all(old.map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const key = keptAs(event.request);
  if (key) event.respondWith(networkFirst(event, key));
});

/** The cache key of a request whose answer is kept, or null for one left to the network alone. */
function keptAs(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return null;
  if (request.mode === "navigate" && url.pathname.startsWith("/notes/")) return NOTE_PAGE;
  return KEPT.has(url.pathname) ? url.pathname : null;
}

async function networkFirst(event, key) {
  try {
    const response = await fetch(event.request);
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
    }
    return response;
  } catch (unreachable) {
    const kept = await caches.open(CACHE).then((cache) => cache.match(key));
    if (!kept) throw unreachable;
    // Marked, so that the library can say it shows the listing as last seen.
    const headers = new Headers(kept.headers);
    headers.set("Inkwell-Kept", "1");
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
}
