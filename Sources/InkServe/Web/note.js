// The note view: pages drawn by the server, a live canvas for the stroke being written, and a
// WebSocket to the note's editor session. Every rule (when to save, when navigation shows or hides,
// whether leaving needs a question) is the session's: these files only show what they are told.
// This one shows the session's messages and starts the view; beside it: note-state.js (what they
// share), note-connection.js (the socket and the strokes kept until confirmed), note-canvas.js (pages
// changed stroke by stroke, and live drawing), ink-geometry.js (the shape of ink, as the server draws
// it), note-input.js (pen, touch, zoom, keys), note-toolbar.js (tools, colours, widths),
// note-navigation.js (the toolbar shown or hidden), note-replay.js and note-download.js;
// note-last-pages.js keeps the pages shown for a reload offline.
import { el, toast } from "/assets/api.js";
import { applyInk, drawKept, othersStroke, showPages, updatePage } from "/assets/note-canvas.js";
import { connect, connected, loadKept, resendUnconfirmed, send, sendEdit, showConnection, unconfirmedCount } from "/assets/note-connection.js";
import { download } from "/assets/note-download.js";
import { keepPages, lastPages } from "/assets/note-last-pages.js";
import { listenForInput } from "/assets/note-input.js";
import { addPage, answer, leave, redo, undo, visibility } from "/assets/note-messages.js";
import { keepPagesBelow, showNavigation } from "/assets/note-navigation.js";
import { replay } from "/assets/note-replay.js";
import { state } from "/assets/note-state.js";
import { buildToolbar } from "/assets/note-toolbar.js";

function receive(message) {
  switch (message.t) {
    case "hello":
      showNote(message.note);
      showPages(message.pages);
      keepPages();
      showAskedPage();
      showNavigation(message.nav);
      showSaving(message.saving);
      showTags(message.tags);
      resendUnconfirmed();
      break;
    case "page": updatePage(message); keepPages(); break;
    case "ink": applyInk(message); keepPages(); break;
    case "down": case "move": case "up": othersStroke(message); break;
    case "nav": showNavigation(message.visible); break;
    case "saving": showSaving(message); break;
    case "tags": showTags(message.tags); break;
    case "confirmLeave": document.getElementById("leave").showModal(); break;
    case "left": state.leaving = true; location.href = "/"; break;
    case "error": toast(message.message, "error"); break;
    // The server saves the note and closes the socket; the offline banner and reconnecting follow.
    case "stopping": toast("The server is stopping: what it confirmed is saved; strokes written now are kept here until it is back"); break;
  }
}

/** The server is out of reach with nothing shown yet (a reload offline): the note as this browser last
 *  showed it, and the strokes written since, which wait for the server. */
async function showLastPages() {
  if (state.pages.length) return;
  const last = await lastPages();
  if (!last || state.pages.length) return; // the server may have said hello meanwhile
  showNote(last.note);
  showPages(last.pages);
  drawKept();
}

/** Scrolls to the page the address asks for (`#page=N`, as a search hit links to it), once. */
function showAskedPage() {
  const number = Number(/^#page=(\d+)$/.exec(location.hash)?.[1]);
  const page = number && document.querySelectorAll(".page")[number - 1];
  if (!page) return;
  page.scrollIntoView({ block: "start" });
  history.replaceState(null, "", location.pathname);
}

// MARK: Chrome

function showNote(note) {
  document.title = `${note.title} — Inkwell`;
  document.getElementById("title").textContent = note.title;
  state.title = note.title;
  state.notebook = note.notebook;
}

/** The server's word on saving; what the status shows also depends on strokes not yet confirmed. */
function showSaving(saving) {
  state.saving = saving;
  showConnection();
}

function showTags(tags) {
  document.getElementById("tags").replaceChildren(...tags.map((tag) => el("span", { class: "tag" }, `#${tag}`)));
}

// MARK: Start

async function start() {
  buildToolbar(document.getElementById("tools"));
  keepPagesBelow(document.getElementById("nav"));
  listenForInput(document.getElementById("pages"));
  document.getElementById("undo").onclick = () => sendEdit(undo);
  document.getElementById("redo").onclick = () => sendEdit(redo);
  document.getElementById("add-page").onclick = () => send(addPage(document.getElementById("template").value));
  // Offline there is no session to ask: straight to the library (the browser asks first if strokes are unconfirmed).
  document.getElementById("back").onclick = () => (connected() ? send(leave()) : (location.href = "/"));
  document.getElementById("replay").onclick = () => replay().catch((e) => toast(e.message, "error"));
  const exporter = document.getElementById("export");
  exporter.onchange = () => { download(exporter.value); exporter.value = ""; };
  document.getElementById("leave").addEventListener("close", (event) => {
    send(answer(event.target.returnValue || "stay"));
  });
  document.addEventListener("visibilitychange", () => send(visibility(document.hidden)));
  window.addEventListener("beforeunload", (event) => {
    // Strokes not yet on the server's disk, or changes it has not saved: closing now may lose them.
    if ((unconfirmedCount() > 0 || state.saving.state !== "saved") && !state.leaving) event.preventDefault();
  });
  await loadKept(); // a reload's unconfirmed strokes, sent again on hello
  connect(receive, showLastPages);
}

start();
