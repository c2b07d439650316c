// The connection: a WebSocket to the note's editor session, sent messages logged, strokes kept
// until the server confirms them (and sent again after a reconnect).
import { toast } from "/assets/api.js";
import { noteID, state } from "/assets/note-state.js";

/** Opens the note's WebSocket; `receive` gets each message, parsed. Reconnects a second after a loss. */
export function connect(receive) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/notes/${noteID}/live`);
  state.socket = socket;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    log({ at: performance.now(), ...message, svg: undefined, pts: undefined });
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    if (state.socket !== socket || state.leaving) return;
    if (event.code === 1008 || event.code === 1003) {
      toast(`The server closed this note: ${event.reason || "refused"}`, "error");
      return;
    }
    document.body.dataset.connection = "lost";
    setTimeout(() => connect(receive), 1000);
  });
}

export function send(message) {
  log({ at: performance.now(), sent: message.t });
  if (state.socket?.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

/** Sends a message of a stroke, keeping it until the server confirms the stroke. */
export function sendStroke(key, message) {
  const kept = state.unacknowledged.get(key) ?? [];
  kept.push(message);
  state.unacknowledged.set(key, kept);
  send(message);
}

/** After a reconnect: whatever the server never confirmed goes again (it ignores strokes it has). */
export function resendUnconfirmed() {
  for (const messages of state.unacknowledged.values()) for (const m of messages) send(m);
}

/** The server confirmed the strokes of `keys`. */
export function confirmed(keys) {
  for (const key of keys) state.unacknowledged.delete(key);
}

/** Keeps what came and went, with times (the newest 5,000 entries), for tests and diagnostics. */
function log(entry) {
  state.log.push(entry);
  if (state.log.length > 5000) state.log.splice(0, state.log.length - 5000);
}
