// The connection: a WebSocket to the note's editor session, sent messages logged, and every change
// (a stroke, an erasure, an undo or redo) kept (in memory and in IndexedDB) until the server confirms
// it is on disk, then sent again after a reconnect or a reload. The server ignores a change whose key
// it has, and confirms it again.
import { toast } from "/assets/api.js";
import { newKey, noteID, state, writer } from "/assets/note-state.js";

const DATABASE = "inkwell-offline";
const STROKES = "strokes";
/** While a stroke is being drawn, what is new of it is written to IndexedDB at most this often (ms);
 *  the whole stroke at its pen down and up. */
const KEEP_EVERY = 250;
let database = null;
const keptAt = new Map(); // key → { at: when the stroke was last written to IndexedDB, count: how many of its messages were }

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** Opens the browser's store of unconfirmed strokes and takes this note's into memory (a reload's). */
export async function loadKept() {
  try {
    const open = indexedDB.open(DATABASE, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STROKES, { keyPath: "key" });
    database = await request(open);
    const all = await request(database.transaction(STROKES).objectStore(STROKES).getAll());
    const parts = [];
    for (const record of all) {
      if (record.note !== noteID) continue;
      if (record.stroke) parts.push(record); else state.unacknowledged.set(record.key, record.messages);
    }
    // A stroke whose page was closed while its pen was down: its whole record (the pen down) and the parts
    // written since, in order; each part holds its stroke's messages from `from` on.
    parts.sort((a, b) => a.from - b.from);
    for (const part of parts) {
      const messages = state.unacknowledged.get(part.stroke) ?? [];
      if (part.from <= messages.length) messages.push(...part.messages.slice(messages.length - part.from));
      state.unacknowledged.set(part.stroke, messages);
    }
  } catch (error) {
    database = null;
    toast(`This browser cannot keep strokes while offline (${error?.message ?? error})`, "error");
  }
  showConnection();
}

/** The keys of a stroke's parts in the store (`KEY#FROM`). */
const partsOf = (key) => IDBKeyRange.bound(`${key}#`, `${key}#\uffff`);

/** Writes a change to IndexedDB: whole when `final` (its parts replaced), else, at most every KEEP_EVERY
 *  ms, only the messages that came since it was last written, as a part: a move of a long stroke writes
 *  what is new, never the whole stroke again. */
function keep(key, final) {
  if (!database) return;
  const now = performance.now();
  const kept = keptAt.get(key);
  if (!final && now - (kept?.at ?? -Infinity) < KEEP_EVERY) return;
  const messages = state.unacknowledged.get(key);
  if (!messages) return;
  const store = database.transaction(STROKES, "readwrite").objectStore(STROKES);
  if (final || !kept) {
    store.delete(partsOf(key));
    store.put({ key, note: noteID, messages });
  } else {
    store.put({ key: `${key}#${kept.count}`, note: noteID, stroke: key, from: kept.count, messages: messages.slice(kept.count) });
  }
  keptAt.set(key, { at: now, count: messages.length });
}

function forget(key) {
  keptAt.delete(key);
  const store = database?.transaction(STROKES, "readwrite").objectStore(STROKES);
  store?.delete(key);
  store?.delete(partsOf(key));
}

let receiver = null;
let onLost = null;

/** Opens the note's WebSocket; `receive` gets each message, parsed, and `lost` is told of each loss
 *  (or failure to connect). Reconnects a second after a loss. */
export function connect(receive, lost) {
  receiver = receive;
  onLost = lost;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/notes/${noteID}/live?writer=${writer}`);
  state.socket = socket;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    log({ at: performance.now(), ...message, pages: undefined, paper: undefined, ink: undefined, wholeInk: undefined, add: message.add?.map((s) => s.id), pts: undefined });
    if (message.t === "hello") state.connection = "open";
    receive(message);
    showConnection();
  });
  socket.addEventListener("close", (event) => {
    if (state.socket !== socket || state.leaving) return;
    if (event.code === 1008 || event.code === 1003) {
      toast(`The server closed this note: ${event.reason || "refused"}`, "error");
      return;
    }
    state.connection = "lost";
    showConnection();
    lost();
    setTimeout(() => connect(receive, lost), 1000);
  });
}

// Leaving the page in its tab closes the socket, so the server lets the note go at once (a browser
// may keep a left page's socket open for minutes); back from the back-forward cache, it opens again.
window.addEventListener("pagehide", () => {
  const socket = state.socket;
  state.socket = null;
  socket?.close(1000, "page left");
});
window.addEventListener("pageshow", (event) => { if (event.persisted && receiver) connect(receiver, onLost); });

/** Whether what is sent reaches the server now. */
export function connected() {
  return state.socket?.readyState === WebSocket.OPEN;
}

export function send(message) {
  log({ at: performance.now(), sent: message.t });
  if (connected()) state.socket.send(JSON.stringify(message));
}

/** Sends a message of a kept change (a stroke, an erasure, an undo or redo), keeping it until the server confirms its key. */
export function sendStroke(key, message) {
  const kept = state.unacknowledged.get(key);
  if (kept) kept.push(message); else state.unacknowledged.set(key, [message]);
  keep(key, message.t !== "move");
  send(message);
  if (!kept) showConnection(); // a new change to wait for (a move changes nothing shown)
}

/** Sends an erasure, undo or redo, `make(key)` under a new key of this writer, kept as a stroke is:
 *  written offline, it goes when the server is back, and once. */
export function sendEdit(make) {
  const key = newKey();
  sendStroke(key, make(key));
}

/** After a reconnect: whatever the server never confirmed goes again (it ignores changes it has). */
export function resendUnconfirmed() {
  for (const messages of state.unacknowledged.values()) for (const m of messages) send(m);
}

/** The server has the strokes of `keys` on disk. */
export function confirmed(keys) {
  for (const key of keys) {
    if (state.unacknowledged.delete(key)) forget(key);
  }
  showConnection();
}

/** Strokes written here that the server has not confirmed yet. */
export function unconfirmedCount() {
  return state.unacknowledged.size;
}

/**
 * Shows the connection and what is kept: the offline banner while the server is out of reach, and the
 * saving status, which says "Saved" only on the server's word with nothing of ours unconfirmed.
 */
export function showConnection() {
  const waiting = unconfirmedCount();
  const offline = state.connection === "lost";
  document.body.dataset.connection = state.connection;
  const banner = document.getElementById("offline");
  banner.hidden = !offline;
  banner.textContent = `Offline — ${waiting} change${waiting === 1 ? "" : "s"} kept on this device, sent when the server is back`;
  const server = state.saving; // the server's last word
  let shown = server.state;
  if (offline || (waiting > 0 && shown === "saved")) shown = "unsaved";
  document.body.dataset.saving = shown;
  const node = document.getElementById("saving");
  node.textContent = offline && waiting > 0 ? "Not saved — offline" : {
    saved: "Saved",
    unsaved: "Edited",
    saving: "Saving…",
    retrying: `Couldn't save — retrying in ${Math.ceil(server.in ?? 0)} s`,
  }[shown] ?? "";
  node.title = server.reason ?? "";
}

/** Keeps what came and went, with times (the newest 5,000 entries), for tests and diagnostics. */
function log(entry) {
  state.log.push(entry);
  if (state.log.length > 5000) state.log.splice(0, state.log.length - 5000);
}
