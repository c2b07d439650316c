// The note's pages as this browser last showed them, kept so that a reload while the server is out of
// reach shows them (with the strokes written since, which wait for it in IndexedDB). They go into a
// cache of their own, which the service worker leaves alone, a moment after each change and when the
// page is left; only where the browser has caches (a secure context, as the service worker needs).
import { pagesShown } from "/assets/note-canvas.js";
import { noteID, state } from "/assets/note-state.js";

const CACHE = "inkwell-pages";
const address = `/notes/${noteID}/last-pages`;
/** Changes this close together (ms) are kept in one write: a page's SVG can be a few hundred KB. */
const KEEP_AFTER = 300;
let timer = null;

/** The pages shown changed: keep them soon. */
export function keepPages() {
  if (globalThis.caches && !timer) timer = setTimeout(write, KEEP_AFTER);
}

function write() {
  clearTimeout(timer);
  timer = null;
  const last = JSON.stringify({ note: { title: state.title, notebook: state.notebook }, pages: pagesShown() });
  caches.open(CACHE).then((cache) => cache.put(address, new Response(last, { headers: { "Content-Type": "application/json" } })));
}

window.addEventListener("pagehide", () => { if (timer) write(); });

/** The note and pages last kept here (`{ note: { title, notebook }, pages }`, as the server's hello has
 *  them), or null. */
export async function lastPages() {
  if (!globalThis.caches) return null;
  const kept = await caches.open(CACHE).then((cache) => cache.match(address));
  return kept ? kept.json() : null;
}
