// The note view: pages drawn by the server, a live canvas for the stroke being written, and a
// WebSocket to the note's editor session. Every rule (when to save, when navigation shows or hides,
// whether leaving needs a question) is the session's: this file only shows what it is told.
import { api, el, toast } from "/assets/api.js";

const noteID = location.pathname.split("/").filter(Boolean)[1];
const writer = (crypto.randomUUID?.() ?? String(Math.random()).slice(2)).replace(/[^a-zA-Z0-9-]/g, "").slice(0, 36);
const TOOLS = [
  { name: "pen", label: "Pen", width: 3 },
  { name: "pencil", label: "Pencil", width: 3 },
  { name: "marker", label: "Marker", width: 8 },
  { name: "highlighter", label: "Highlighter", width: 24, color: "#ffe14d" },
  { name: "eraser", label: "Eraser", width: 30, erase: "stroke" },
  { name: "eraser", label: "Cut", width: 30, erase: "split" },
];
const COLORS = ["#000000", "#1f4fbf", "#c0262d", "#207a3c"];
const WIDTHS = [1, 2, 4];

const state = {
  socket: null,
  pages: [],            // { id, width, height, node, ink, canvas }
  tool: TOOLS[0],
  color: COLORS[0],
  widthFactor: 1,
  sequence: 0,
  current: null,        // the stroke being drawn: { key, page, points, tool, color, width, erase }
  others: new Map(),    // strokes other writers are drawing now, by key (drawn live, as they come)
  zoom: 1,
  unacknowledged: new Map(), // key → messages of strokes the server has not confirmed
  saving: "saved",
  leaving: false,
  log: [],              // what arrived, with times (for tests and diagnostics)
};
window.inkwell = state;

// MARK: The connection

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/notes/${noteID}/live`);
  state.socket = socket;
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (state.socket !== socket || state.leaving) return;
    if (event.code === 1008 || event.code === 1003) {
      toast(`The server closed this note: ${event.reason || "refused"}`, "error");
      return;
    }
    document.body.dataset.connection = "lost";
    setTimeout(connect, 1000);
  });
}

function send(message) {
  log({ at: performance.now(), sent: message.t });
  if (state.socket?.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

/** Sends a message of a stroke, keeping it until the server confirms the stroke. */
function sendStroke(key, message) {
  const kept = state.unacknowledged.get(key) ?? [];
  kept.push(message);
  state.unacknowledged.set(key, kept);
  send(message);
}

/** Keeps what came and went, with times (the newest 5,000 entries), for tests and diagnostics. */
function log(entry) {
  state.log.push(entry);
  if (state.log.length > 5000) state.log.splice(0, state.log.length - 5000);
}

function receive(message) {
  log({ at: performance.now(), ...message, svg: undefined, pts: undefined });
  switch (message.t) {
    case "hello":
      document.body.dataset.connection = "open";
      document.title = `${message.note.title} — Inkwell`;
      document.getElementById("title").textContent = message.note.title;
      state.notebook = message.note.notebook;
      showPages(message.pages);
      showNavigation(message.nav);
      showSaving(message.saving);
      showTags(message.tags);
      // A reconnect: whatever the server never confirmed goes again (it ignores strokes it has).
      for (const messages of state.unacknowledged.values()) for (const m of messages) send(m);
      break;
    case "page": updatePage(message); break;
    case "down": case "move": case "up": othersStroke(message); break;
    case "nav": showNavigation(message.visible); break;
    case "saving": showSaving(message); break;
    case "tags": showTags(message.tags); break;
    case "confirmLeave": document.getElementById("leave").showModal(); break;
    case "left": state.leaving = true; location.href = "/"; break;
    case "error": toast(message.message, "error"); break;
  }
}

// MARK: Pages

function showPages(pages) {
  const container = document.getElementById("pages");
  container.replaceChildren();
  state.pages = [];
  for (const page of pages) addPageView(page);
}

function addPageView(page) {
  const ink = el("div", { class: "ink" });
  const canvas = el("canvas", { class: "live" });
  const node = el("section", { class: "page", dataset: { id: page.id, strokes: page.strokes } }, ink, canvas);
  node.style.aspectRatio = `${page.width} / ${page.height}`;
  ink.innerHTML = page.svg;
  document.getElementById("pages").append(node);
  const view = { id: page.id, width: page.width, height: page.height, node, ink, canvas };
  state.pages.push(view);
  sizeCanvas(view);
  return view;
}

function updatePage(message) {
  let view = state.pages.find((p) => p.id === message.id);
  if (!view) view = addPageView(message);
  view.ink.innerHTML = message.svg;
  view.node.dataset.strokes = message.strokes;
  for (const key of message.keys) {
    state.unacknowledged.delete(key);
    state.others.delete(key);
  }
  if (!state.current || state.current.page !== view) clearCanvas(view);
  // What others are still writing on this page stays on the canvas.
  for (const stroke of state.others.values()) if (stroke.page === view) drawLive(stroke, stroke.points.slice(1), stroke.points[0]);
}

/** Another writer's stroke in progress (their pen messages, passed on by the server). */
function othersStroke(message) {
  if (message.t === "down") {
    const view = state.pages.find((p) => p.id === message.page);
    if (!view) return;
    state.others.set(message.k, {
      key: message.k, page: view, points: [message.pt], tool: TOOLS.find((t) => t.name === message.tool) ?? TOOLS[0],
      color: message.color, width: message.w,
    });
    return;
  }
  const stroke = state.others.get(message.k);
  if (!stroke || message.t !== "move") return;
  drawLive(stroke, message.pts);
  stroke.points.push(...message.pts);
}

function sizeCanvas(view) {
  const ratio = window.devicePixelRatio || 1;
  const rect = view.node.getBoundingClientRect();
  view.canvas.width = Math.max(1, Math.round(rect.width * ratio));
  view.canvas.height = Math.max(1, Math.round(rect.height * ratio));
}

function clearCanvas(view) {
  view.canvas.getContext("2d").clearRect(0, 0, view.canvas.width, view.canvas.height);
}

window.addEventListener("resize", () => state.pages.forEach(sizeCanvas));

// MARK: Chrome

function showNavigation(visible) {
  document.body.dataset.nav = visible ? "shown" : "hidden";
}

function showSaving(saving) {
  state.saving = saving.state;
  document.body.dataset.saving = saving.state;
  const text = {
    saved: "Saved",
    unsaved: "Edited",
    saving: "Saving…",
    retrying: `Couldn't save — retrying in ${Math.ceil(saving.in ?? 0)} s`,
  }[saving.state];
  const node = document.getElementById("saving");
  node.textContent = text;
  node.title = saving.reason ?? "";
}

function showTags(tags) {
  document.getElementById("tags").replaceChildren(...tags.map((tag) => el("span", { class: "tag" }, `#${tag}`)));
}

function buildToolbar() {
  const tools = document.getElementById("tools");
  TOOLS.forEach((tool, index) => {
    tools.append(el("button", {
      type: "button", class: "tool", dataset: { tool: tool.name, index }, "aria-pressed": index === 0 ? "true" : "false",
      onclick: () => { state.tool = tool; markPressed(tools, ".tool", index); },
    }, tool.label));
  });
  COLORS.forEach((color, index) => {
    const swatch = el("button", {
      type: "button", class: "swatch", title: color, "aria-pressed": index === 0 ? "true" : "false",
      onclick: () => { state.color = color; markPressed(tools, ".swatch", index); },
    });
    swatch.style.background = color;
    tools.append(swatch);
  });
  WIDTHS.forEach((factor, index) => {
    tools.append(el("button", {
      type: "button", class: "width", "aria-pressed": factor === 1 ? "true" : "false",
      onclick: () => { state.widthFactor = factor; markPressed(tools, ".width", index); },
    }, ["thin", "medium", "thick"][index]));
  });
}

function markPressed(container, selector, index) {
  container.querySelectorAll(selector).forEach((node, i) => node.setAttribute("aria-pressed", String(i === index)));
}

// MARK: Input

/** Where a pointer event is on a page, in page pixels. */
function pagePoint(view, event) {
  const rect = view.node.getBoundingClientRect();
  const k = view.width / rect.width;
  const point = [(event.clientX - rect.left) * k, (event.clientY - rect.top) * k, pressureOf(event)];
  const tilt = tiltOf(event);
  if (tilt) point.push(tilt[0], tilt[1]);
  return point.map((v) => Math.round(v * 1000) / 1000);
}

function pressureOf(event) {
  if (event.pointerType === "mouse") return 0.5;
  return event.pressure > 0 ? event.pressure : 0.5;
}

function tiltOf(event) {
  if (event.pointerType !== "pen") return null;
  if (typeof event.altitudeAngle === "number" && typeof event.azimuthAngle === "number") {
    return [event.altitudeAngle, event.azimuthAngle];
  }
  return null;
}

function viewAt(event) {
  return state.pages.find((view) => view.node.contains(event.target));
}

const touches = new Map();
let lastTap = null;
let pinch = null; // two fingers down: { distance, zoom } at the start

/** Zooms the pages (0.5× to 4×), keeping the point under `center` (client pixels) in place. */
function setZoom(zoom, center) {
  const next = Math.min(4, Math.max(0.5, zoom));
  const before = document.documentElement.scrollTop + center.y;
  const ratio = next / state.zoom;
  state.zoom = next;
  document.documentElement.style.setProperty("--zoom", String(next));
  window.scrollTo({ left: window.scrollX * ratio, top: before * ratio - center.y });
  state.pages.forEach(sizeCanvas);
  document.body.dataset.zoom = next.toFixed(2);
}

function touchDistance() {
  const [a, b] = [...touches.values()];
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function onPointerDown(event) {
  if (event.pointerType === "touch") {
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY, startX: event.clientX, startY: event.clientY, at: event.timeStamp });
    if (touches.size === 2) pinch = { distance: touchDistance(), zoom: state.zoom };
    return;
  }
  if (event.button !== 0 && event.pointerType === "mouse") return;
  const view = viewAt(event);
  if (!view || state.current) return;
  event.preventDefault();
  view.node.setPointerCapture?.(event.pointerId);
  const tool = state.tool;
  const key = `${writer}:${++state.sequence}`;
  const point = pagePoint(view, event);
  const width = tool.width * state.widthFactor;
  state.current = { key, page: view, points: [point], tool, color: tool.color ?? state.color, width, pointerId: event.pointerId };
  if (tool.erase === "stroke") return; // a stroke eraser sends its path when it lifts
  sendStroke(key, { t: "down", k: key, page: view.id, pt: point, tool: tool.name, color: state.current.color, w: width });
}

function onPointerMove(event) {
  if (event.pointerType === "touch") {
    const touch = touches.get(event.pointerId);
    if (!touch) return;
    const [dx, dy] = [touch.x - event.clientX, touch.y - event.clientY];
    touch.x = event.clientX;
    touch.y = event.clientY;
    if (pinch && touches.size === 2) {
      const [a, b] = [...touches.values()];
      setZoom(pinch.zoom * touchDistance() / Math.max(1, pinch.distance), { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
    } else {
      window.scrollBy(dx, dy);
    }
    return;
  }
  const stroke = state.current;
  if (!stroke || event.pointerId !== stroke.pointerId) return;
  event.preventDefault();
  const events = event.getCoalescedEvents?.() ?? [];
  const points = (events.length ? events : [event]).map((e) => pagePoint(stroke.page, e));
  drawLive(stroke, points);
  stroke.points.push(...points);
  if (stroke.tool.erase !== "stroke") sendStroke(stroke.key, { t: "move", k: stroke.key, pts: points });
}

function onPointerUp(event) {
  if (event.pointerType === "touch") {
    const touch = touches.get(event.pointerId);
    touches.delete(event.pointerId);
    if (pinch) {
      if (touches.size === 0) pinch = null;
      return;
    }
    if (touch && event.timeStamp - touch.at < 300 && Math.hypot(event.clientX - touch.startX, event.clientY - touch.startY) < 12) tapped(event);
    return;
  }
  const stroke = state.current;
  if (!stroke || event.pointerId !== stroke.pointerId) return;
  state.current = null;
  if (stroke.tool.erase === "stroke") {
    for (let i = 0; i < stroke.points.length; i += 4000) {
      send({ t: "eraseAlong", page: stroke.page.id, pts: stroke.points.slice(i, i + 4000).map((p) => p.slice(0, 3)), r: stroke.width / 2 });
    }
    clearCanvas(stroke.page);
    return;
  }
  sendStroke(stroke.key, { t: "up", k: stroke.key });
}

/** A finger tap; two close together make a double tap. Positions go in page pixels from the screen's top. */
function tapped(event) {
  const view = state.pages[0];
  if (!view) return;
  const rect = view.node.getBoundingClientRect();
  const k = view.width / rect.width;
  const now = event.timeStamp;
  const double = lastTap && now - lastTap.at < 400 && Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < 40;
  lastTap = double ? null : { at: now, x: event.clientX, y: event.clientY };
  send({ t: "tap", x: (event.clientX - rect.left) * k, y: event.clientY * k, n: double ? 2 : 1 });
}

/** Draws new points of the stroke being written at once, before the server's outline arrives. */
function drawLive(stroke, points, from = null) {
  const view = stroke.page;
  const context = view.canvas.getContext("2d");
  const scale = view.canvas.width / view.width;
  context.lineCap = "round";
  context.lineJoin = "round";
  const erasing = stroke.tool.name === "eraser";
  context.strokeStyle = erasing ? "rgba(128,128,128,0.35)" : stroke.color;
  context.globalAlpha = stroke.tool.name === "highlighter" ? 0.35 : 1;
  let previous = from ?? stroke.points[stroke.points.length - 1];
  for (const point of points) {
    const pressure = erasing ? 1 : 0.5 + point[2];
    context.lineWidth = Math.max(1, stroke.width * pressure * scale);
    context.beginPath();
    context.moveTo(previous[0] * scale, previous[1] * scale);
    context.lineTo(point[0] * scale, point[1] * scale);
    context.stroke();
    previous = point;
  }
}

// MARK: Replay

async function replay() {
  const view = state.pages.find((p) => p.node.getBoundingClientRect().bottom > 0) ?? state.pages[0];
  if (!view) return;
  const data = await api("GET", `/api/notes/${noteID}/pages/${view.id}/strokes`);
  const player = document.getElementById("player");
  const canvas = document.getElementById("player-canvas");
  const scrub = document.getElementById("player-scrub");
  const speedSelect = document.getElementById("player-speed");
  const play = document.getElementById("player-play");
  player.hidden = false;
  const ratio = window.devicePixelRatio || 1;
  const width = Math.min(window.innerWidth - 32, 900);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${width * data.height / data.width}px`;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(width * data.height / data.width * ratio);
  const scale = canvas.width / data.width;
  const strokes = data.strokes.filter((s) => s.tool !== "eraser");
  // The recording's time: strokes keep their start times; points their times since the pen went down.
  const end = Math.max(1, ...strokes.map((s) => s.start + (s.points.at(-1)?.[3] ?? 0)));
  let position = 0;
  let playing = true;
  let last = performance.now();
  const context = canvas.getContext("2d");
  function draw(upTo) {
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.lineCap = "round";
    context.lineJoin = "round";
    for (const stroke of strokes) {
      if (stroke.start > upTo) break;
      context.strokeStyle = stroke.color;
      context.globalAlpha = stroke.tool === "highlighter" ? 0.35 : 1;
      for (let i = 1; i < stroke.points.length; i++) {
        const [x0, y0] = stroke.points[i - 1];
        const [x1, y1, p, t] = stroke.points[i];
        if (stroke.start + t > upTo) break;
        context.lineWidth = Math.max(1, stroke.width * (0.5 + p) * scale);
        context.beginPath();
        context.moveTo(x0 * scale, y0 * scale);
        context.lineTo(x1 * scale, y1 * scale);
        context.stroke();
      }
    }
    context.globalAlpha = 1;
  }
  function frame(now) {
    if (player.hidden) return;
    if (playing) position = Math.min(end, position + (now - last) * Number(speedSelect.value));
    last = now;
    scrub.value = String(Math.round(position / end * 1000));
    draw(position);
    if (position >= end) { playing = false; play.textContent = "Play"; }
    requestAnimationFrame(frame);
  }
  play.onclick = () => {
    if (position >= end) position = 0;
    playing = !playing;
    play.textContent = playing ? "Pause" : "Play";
  };
  scrub.oninput = () => { position = Number(scrub.value) / 1000 * end; };
  document.getElementById("player-close").onclick = () => { player.hidden = true; };
  requestAnimationFrame(frame);
}

// MARK: Start

function download(choice) {
  if (!choice) return;
  const url = choice === "zip"
    ? `/api/notebooks/export?notebook=${encodeURIComponent(state.notebook ?? "Inbox")}`
    : choice.startsWith("png")
      ? `/api/notes/${noteID}/export?format=png&scale=${choice.slice(3)}`
      : `/api/notes/${noteID}/export?format=${choice}`;
  // Saved first: an export reads the stored pages.
  location.href = url;
}

function start() {
  buildToolbar();
  const pages = document.getElementById("pages");
  pages.addEventListener("pointerdown", onPointerDown);
  pages.addEventListener("pointermove", onPointerMove);
  pages.addEventListener("pointerup", onPointerUp);
  pages.addEventListener("pointercancel", onPointerUp);
  pages.addEventListener("contextmenu", (e) => e.preventDefault());
  document.getElementById("undo").onclick = () => send({ t: "undo" });
  document.getElementById("redo").onclick = () => send({ t: "redo" });
  document.getElementById("add-page").onclick = () => send({ t: "addPage", template: document.getElementById("template").value });
  document.getElementById("back").onclick = () => send({ t: "leave" });
  document.getElementById("replay").onclick = () => replay().catch((e) => toast(e.message, "error"));
  const exporter = document.getElementById("export");
  exporter.onchange = () => { download(exporter.value); exporter.value = ""; };
  document.getElementById("leave").addEventListener("close", (event) => {
    const answer = event.target.returnValue || "stay";
    send({ t: "answer", a: answer });
  });
  document.addEventListener("visibilitychange", () => send({ t: "visibility", hidden: document.hidden }));
  window.addEventListener("beforeunload", (event) => {
    if (state.saving !== "saved" && !state.leaving) event.preventDefault();
  });
  window.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return; // Ctrl + wheel (and a touchpad's pinch) zooms the pages, not the whole page
    event.preventDefault();
    setZoom(state.zoom * Math.exp(-event.deltaY / 300), { x: event.clientX, y: event.clientY });
  }, { passive: false });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "z") send({ t: event.shiftKey ? "redo" : "undo" });
  });
  connect();
}

start();
