// Input: a pen or the mouse writes (with pressure and tilt), a finger scrolls, two fingers zoom
// (about the point between them), a double tap is passed to the session; Ctrl + wheel zooms; Ctrl+Z
// undoes, Ctrl+Shift+Z redoes. Pen first: a touch that starts while a pen touches the screen (or rests
// there when it comes down) is a palm for as long as it lasts, and so is one that starts within
// PALM_AFTER_PEN ms of the pen's lift and PALM_REACH of where it lifted (a palm neither writes, scrolls
// nor zooms); a finger put down farther away scrolls at once, however soon after the pen. The navigation comes
// back with the mouse or a pen hovering at the top edge, its handle, Esc, or a pen double tap near
// the top, or keyboard focus in it, and each use of it keeps it up (note-navigation.js: the session decides, or offline the page).
import { addPoints, clearCanvas, finishStroke, sizeCanvas } from "/assets/note-canvas.js";
import { sendEdit, sendStroke } from "/assets/note-connection.js";
import { eraseAlong, redo, strokeDown, strokeMove, strokeUp, undo } from "/assets/note-messages.js";
import { keyboardInNavigation, penDown, tapAt, wantNavigation } from "/assets/note-navigation.js";
import { WIDTHS, newKey, state } from "/assets/note-state.js";
import { RULES } from "/assets/rules.js";

/** A touch starting this long (ms) after a pen lifts, and within PALM_REACH of where it lifted, is a palm. */
const PALM_AFTER_PEN = 500;
/** CSS pixels (about 6 cm on a tablet): a hand that just lifted its pen rests next to where it wrote;
 *  a finger put down farther away, as a scroll with the other hand is, is not a palm. */
const PALM_REACH = 300;
/** A pointer (mouse or hovering pen) this close to the top (CSS pixels) reaches for the navigation. */
const TOP_EDGE = 24;
/** A pen contact starting this close to the top of the screen (page pixels, the session's band) may be
 *  the first of a double tap: it is sent only once it moves, lasts, or no second tap follows. */
const TOP_BAND = RULES.ink.topEdgeBand;
const TAP_MS = 300;
const DOUBLE_TAP_MS = 400;
const TAP_SLOP = 12;

/** Listens to the pointer on `pages` and to the wheel and keys of the window. */
export function listenForInput(pages) {
  pages.addEventListener("pointerdown", onPointerDown);
  pages.addEventListener("pointermove", onPointerMove);
  pages.addEventListener("pointerup", onPointerUp);
  pages.addEventListener("pointercancel", onPointerUp);
  pages.addEventListener("contextmenu", (e) => e.preventDefault());
  // A pen's contact anywhere (on the pages or not) starts the palm time.
  window.addEventListener("pointerdown", (event) => { if (event.pointerType === "pen") penTouches(event, 1); }, true);
  window.addEventListener("pointerup", (event) => { if (event.pointerType === "pen") penTouches(event, -1); }, true);
  window.addEventListener("pointercancel", (event) => { if (event.pointerType === "pen") penTouches(event, -1); }, true);
  // The browser's own panning and zooming never act on a palm (the editor scrolls and zooms by itself).
  for (const kind of ["touchstart", "touchmove"]) {
    window.addEventListener(kind, (event) => {
      if ([...event.changedTouches].some((t) => isPalm(event.timeStamp, t.clientX, t.clientY))) event.preventDefault();
    }, { passive: false });
  }
  window.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return; // Ctrl + wheel (and a touchpad's pinch) zooms the pages, not the whole page
    event.preventDefault();
    const at = { x: event.clientX, y: event.clientY };
    setZoom(state.zoom * Math.exp(-event.deltaY / 300), anchorAt(at), at);
  }, { passive: false });
  document.addEventListener("keydown", (event) => {
    // With Shift held, `key` is "Z".
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") sendEdit(event.shiftKey ? redo : undo);
    if (event.key === "Escape") wantNavigation(true);
  });
  // The navigation: hovering at the top edge, its handle, and any use of it keep it up.
  window.addEventListener("pointermove", (event) => {
    if (event.pointerType === "touch" || event.buttons !== 0) return;
    if (event.pointerType === "pen" && pensDown > 0) penTouches(event, -pensDown); // hovering: a lost pen up
    if (event.clientY <= TOP_EDGE) wantNavigation(false);
    else if (document.getElementById("nav")?.contains(event.target)) wantNavigation(false);
  });
  document.getElementById("nav-handle")?.addEventListener("click", () => wantNavigation(true));
  const nav = document.getElementById("nav");
  nav?.addEventListener("pointerdown", () => wantNavigation(true));
  nav?.addEventListener("change", () => wantNavigation(true));
  nav?.addEventListener("focusin", () => { if (keyboardInNavigation()) wantNavigation(true); });
}

let pensDown = 0;
let penLiftedAt = -Infinity;
let penLifted = { x: NaN, y: NaN }; // where (client pixels)

function penTouches(event, change) {
  pensDown = Math.max(0, pensDown + change);
  if (change > 0) {
    // A palm already resting when the pen came down stops acting too.
    touches.clear();
    pinch = null;
    lastTap = null;
  } else {
    penLiftedAt = event.timeStamp;
    penLifted = { x: event.clientX, y: event.clientY };
  }
}

/** Whether a touch starting at `time` (an event's timeStamp) at client point `x`, `y` is a palm: a pen is
 *  down, or lifted under PALM_AFTER_PEN ms ago within PALM_REACH of it. */
function isPalm(time, x, y) {
  if (pensDown > 0) return true;
  return time - penLiftedAt < PALM_AFTER_PEN && !(Math.hypot(x - penLifted.x, y - penLifted.y) > PALM_REACH);
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
let pinch = null; // two fingers down: { distance, zoom, anchor } at the start
let penTap = null; // a pen tap near the top, waiting for a second one: { stroke, at, x, y, timer }

/** Where client point `at` is on the page nearest it, as fractions of that page's size. */
function anchorAt(at) {
  let best = null;
  for (const view of state.pages) {
    const r = view.node.getBoundingClientRect();
    const distance = Math.max(0, r.top - at.y, at.y - r.bottom);
    if (!best || distance < best.distance) best = { distance, view, rect: r };
  }
  if (!best) return null;
  const { view, rect } = best;
  return { view, fx: (at.x - rect.left) / rect.width, fy: (at.y - rect.top) / rect.height };
}

/** Zooms the pages (0.5× to 4×), then scrolls so that `anchor` (a point of a page) is at client point `at`. */
function setZoom(zoom, anchor, at) {
  const next = Math.min(4, Math.max(0.5, zoom));
  if (next !== state.zoom) {
    state.zoom = next;
    document.documentElement.style.setProperty("--zoom", String(next));
    state.pages.forEach(sizeCanvas);
    document.body.dataset.zoom = next.toFixed(2);
  }
  if (!anchor) return;
  const rect = anchor.view.node.getBoundingClientRect();
  window.scrollBy(rect.left + anchor.fx * rect.width - at.x, rect.top + anchor.fy * rect.height - at.y);
}

function midpoint() {
  const [a, b] = [...touches.values()];
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

function touchDistance() {
  const [a, b] = [...touches.values()];
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function onPointerDown(event) {
  if (event.pointerType === "touch") {
    if (isPalm(event.timeStamp, event.clientX, event.clientY)) return;
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY, startX: event.clientX, startY: event.clientY, at: event.timeStamp });
    if (touches.size === 2) pinch = { distance: touchDistance(), zoom: state.zoom, anchor: anchorAt(midpoint()) };
    return;
  }
  if (event.button !== 0 && event.pointerType === "mouse") return;
  const view = viewAt(event);
  if (!view || state.current) return;
  event.preventDefault();
  view.node.setPointerCapture?.(event.pointerId);
  const tool = state.tool;
  const key = newKey();
  const point = pagePoint(view, event);
  const width = tool.widths?.[state.widthIndex] ?? tool.width * WIDTHS[state.widthIndex].factor;
  const stroke = {
    key, page: view, points: [point], times: [0], start: performance.now(), tool, color: tool.color ?? state.color, width,
    pointerId: event.pointerId, startX: event.clientX, startY: event.clientY,
  };
  state.current = stroke;
  if (tool.erase === "stroke") return; // a stroke eraser sends its path when it lifts
  const down = strokeDown(key, view.id, point, tool.name, stroke.color, width);
  const k = view.width / view.node.getBoundingClientRect().width;
  if (event.pointerType === "pen" && event.clientY * k < TOP_BAND) {
    stroke.held = [down]; // maybe a tap: sent once it is clearly a stroke
    return;
  }
  flushPenTap();
  penDown();
  sendStroke(key, down);
}

/** Sends a held stroke's messages: it turned out to be ink, not a tap. */
function release(stroke) {
  const held = stroke.held;
  stroke.held = null;
  if (!held) return;
  penDown();
  for (const message of held) sendStroke(stroke.key, message);
}

/** A waiting pen tap that got no second one is a dot after all: sent, before anything newer. */
function flushPenTap() {
  if (!penTap) return;
  clearTimeout(penTap.timer);
  const { stroke } = penTap;
  penTap = null;
  release(stroke);
}

function onPointerMove(event) {
  if (event.pointerType === "touch") {
    const touch = touches.get(event.pointerId);
    if (!touch) return;
    event.preventDefault();
    if (pensDown > 0) { // a pen came down: the touch is a palm from now on
      touches.delete(event.pointerId);
      pinch = null;
      return;
    }
    const [dx, dy] = [touch.x - event.clientX, touch.y - event.clientY];
    touch.x = event.clientX;
    touch.y = event.clientY;
    if (pinch && touches.size === 2) {
      setZoom(pinch.zoom * touchDistance() / Math.max(1, pinch.distance), pinch.anchor, midpoint());
    } else if (!pinch) {
      window.scrollBy(dx, dy);
    }
    return;
  }
  const stroke = state.current;
  if (!stroke || event.pointerId !== stroke.pointerId) return;
  event.preventDefault();
  const events = event.getCoalescedEvents?.() ?? [];
  const points = (events.length ? events : [event]).map((e) => pagePoint(stroke.page, e));
  if (endedByServer(stroke)) {
    // The server ended it (no move for its stall time) and confirmed it: the pen goes on in a new stroke.
    const key = newKey();
    finishStroke(stroke);
    Object.assign(stroke, { key, points: [points[0]], times: [0], start: performance.now() });
    sendStroke(key, strokeDown(key, stroke.page.id, points[0], stroke.tool.name, stroke.color, stroke.width));
  }
  addPoints(stroke, points);
  if (stroke.tool.erase === "stroke") return;
  const move = strokeMove(stroke.key, points);
  if (!stroke.held) {
    sendStroke(stroke.key, move);
    return;
  }
  stroke.held.push(move);
  const moved = Math.hypot(event.clientX - stroke.startX, event.clientY - stroke.startY) >= TAP_SLOP;
  if (moved || performance.now() - stroke.start > TAP_MS) {
    flushPenTap();
    release(stroke);
  }
}

function onPointerUp(event) {
  if (event.pointerType === "touch") {
    const touch = touches.get(event.pointerId);
    touches.delete(event.pointerId);
    if (!touch) return; // a palm's
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
  finishStroke(stroke);
  if (stroke.held) {
    if (performance.now() - stroke.start <= TAP_MS) {
      penTapped(stroke, event);
      return;
    }
    flushPenTap();
    release(stroke);
  }
  if (stroke.tool.erase === "stroke") {
    for (let i = 0; i < stroke.points.length; i += RULES.limits.points) {
      const path = stroke.points.slice(i, i + RULES.limits.points).map((p) => p.slice(0, 3));
      sendEdit((key) => eraseAlong(stroke.page.id, path, stroke.width / 2, key));
    }
    clearCanvas(stroke.page);
    return;
  }
  if (!endedByServer(stroke)) sendStroke(stroke.key, strokeUp(stroke.key));
}

/** Whether the server has confirmed a stroke whose pen is still down: it ended it, as its stall rule
 *  ends a stroke with no move for 10 s. Its further points are a new stroke; no up is sent for it. */
function endedByServer(stroke) {
  return !stroke.held && stroke.tool.erase !== "stroke" && !state.unacknowledged.has(stroke.key);
}

/** A short, still pen contact near the top: with a pen tap just before it, a double tap (passed to the
 *  session, which shows the navigation; neither tap is ink); otherwise it waits for a second one. */
function penTapped(stroke, event) {
  const previous = penTap;
  const double = previous && event.timeStamp - previous.at < DOUBLE_TAP_MS &&
    Math.hypot(event.clientX - previous.x, event.clientY - previous.y) < 40;
  if (double) {
    clearTimeout(previous.timer);
    penTap = null;
    clearCanvas(stroke.page);
    const rect = stroke.page.node.getBoundingClientRect();
    const k = stroke.page.width / rect.width;
    tapAt((event.clientX - rect.left) * k, event.clientY * k, 2);
    return;
  }
  flushPenTap();
  stroke.held.push(strokeUp(stroke.key));
  penTap = { stroke, at: event.timeStamp, x: event.clientX, y: event.clientY, timer: setTimeout(flushPenTap, DOUBLE_TAP_MS) };
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
  tapAt((event.clientX - rect.left) * k, event.clientY * k, double ? 2 : 1);
}
