// Input: a pen or the mouse writes (with pressure and tilt), a finger scrolls, two fingers zoom,
// a double tap is passed to the session; Ctrl + wheel zooms; Ctrl+Z undoes, Ctrl+Shift+Z redoes.
import { addPoints, clearCanvas, sizeCanvas } from "/assets/note-canvas.js";
import { send, sendStroke } from "/assets/note-connection.js";
import { state, writer } from "/assets/note-state.js";

/** Listens to the pointer on `pages` and to the wheel and keys of the window. */
export function listenForInput(pages) {
  pages.addEventListener("pointerdown", onPointerDown);
  pages.addEventListener("pointermove", onPointerMove);
  pages.addEventListener("pointerup", onPointerUp);
  pages.addEventListener("pointercancel", onPointerUp);
  pages.addEventListener("contextmenu", (e) => e.preventDefault());
  window.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return; // Ctrl + wheel (and a touchpad's pinch) zooms the pages, not the whole page
    event.preventDefault();
    setZoom(state.zoom * Math.exp(-event.deltaY / 300), { x: event.clientX, y: event.clientY });
  }, { passive: false });
  document.addEventListener("keydown", (event) => {
    // With Shift held, `key` is "Z".
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") send({ t: event.shiftKey ? "redo" : "undo" });
  });
}

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
  state.current = {
    key, page: view, points: [point], times: [0], start: performance.now(), tool, color: tool.color ?? state.color, width,
    pointerId: event.pointerId,
  };
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
  addPoints(stroke, points);
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
