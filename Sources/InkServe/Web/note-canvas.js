// The pages: each is the server's SVG of its paper with the saved ink in it stroke by stroke (a
// `<g data-id>` a stroke, in two layers: highlighters and markers under, the rest over), which the
// server's `ink` messages change in place; over it a live canvas, on which strokes the server has not
// confirmed yet are drawn at once, in the shape the server will draw them (ink-geometry.js), until an
// update with their key arrives. A stroke being written (this writer's or another's) has two canvases
// of its own over that until its pen lifts: its final part, drawn once, and its tip, drawn again with
// each move, so that a move costs the same however long the stroke is.
import { el } from "/assets/api.js";
import { GrowingStroke, lookOf, mixWithWhite, outline } from "/assets/ink-geometry.js";
import { confirmed, send } from "/assets/note-connection.js";
import { sendPage } from "/assets/note-messages.js";
import { TOOLS, state } from "/assets/note-state.js";

const SVG = "http://www.w3.org/2000/svg";
/** Strokes on the live canvases, by key: this writer's until the server confirms them, others' until
 *  their update arrives. */
const live = new Map();

export function showPages(pages) {
  const container = document.getElementById("pages");
  container.replaceChildren();
  state.pages = [];
  for (const page of pages) addPageView(page);
  // Strokes still on a live canvas (unconfirmed, or others' in progress) go onto the new views.
  for (const [key, stroke] of live) {
    dropOverlay(stroke);
    stroke.page = state.pages.find((p) => p.id === stroke.page.id);
    if (!stroke.page) live.delete(key);
  }
  state.pages.forEach(redraw);
}

function addPageView(page) {
  const ink = el("div", { class: "ink" });
  const canvas = el("canvas", { class: "live" });
  const node = el("section", { class: "page", dataset: { id: page.id, strokes: page.strokes } }, ink, canvas);
  node.style.aspectRatio = `${page.width} / ${page.height}`;
  document.getElementById("pages").append(node);
  const view = { id: page.id, width: page.width, height: page.height, tolerance: page.tolerance, node, ink, canvas };
  drawPage(view, page);
  state.pages.push(view);
  sizeCanvas(view);
  return view;
}

/** Puts a whole page into its view: the paper, then the ink, stroke by stroke or whole. */
function drawPage(view, page) {
  view.paper = page.paper;
  view.ink.innerHTML = page.paper;
  view.tolerance = page.tolerance;
  const root = view.ink.querySelector("svg > g") ?? view.ink.querySelector("svg");
  view.under = document.createElementNS(SVG, "g");
  view.under.setAttribute("class", "under");
  view.over = document.createElementNS(SVG, "g");
  view.over.setAttribute("class", "over");
  root.append(view.under, view.over);
  if (page.wholeInk != null) {
    view.over.innerHTML = page.wholeInk;
  } else {
    for (const stroke of page.ink) (stroke.under ? view.under : view.over).append(strokeElement(stroke));
  }
  view.node.dataset.strokes = page.strokes;
}

function strokeElement(stroke) {
  const group = document.createElementNS(SVG, "g");
  group.dataset.id = stroke.id;
  group.innerHTML = stroke.svg;
  return group;
}

/** The pages as shown now, in the form the server sends them (its ink whole: both layers in order). */
export function pagesShown() {
  return state.pages.map((view) => ({
    id: view.id, width: view.width, height: view.height, tolerance: view.tolerance, strokes: Number(view.node.dataset.strokes),
    paper: view.paper, ink: [], wholeInk: view.under.innerHTML + view.over.innerHTML,
  }));
}

/** Strokes kept from before a reload that the server has not confirmed: drawn from their messages, as
 *  another writer's are, until their update arrives. */
export function drawKept() {
  for (const messages of state.unacknowledged.values()) messages.forEach(othersStroke);
}

/** A whole page from the server (on request, a page added or its paper changed, a page with erasers). */
export function updatePage(message) {
  const view = state.pages.find((p) => p.id === message.id);
  if (view) drawPage(view, message); else addPageView(message);
  settle(message.keys ?? []);
}

/** Strokes added to and removed from a page, changed in place: nothing else on the page is redrawn. */
export function applyInk(message) {
  const view = state.pages.find((p) => p.id === message.page);
  if (!view) {
    send(sendPage(message.page));
    settle(message.keys);
    return;
  }
  for (const id of message.remove) view.ink.querySelector(`g[data-id="${id}"]`)?.remove();
  for (const stroke of message.add) {
    view.ink.querySelector(`g[data-id="${stroke.id}"]`)?.remove();
    const layer = stroke.under ? view.under : view.over;
    const before = stroke.before == null ? null : layer.querySelector(`:scope > g[data-id="${stroke.before}"]`);
    layer.insertBefore(strokeElement(stroke), before);
  }
  view.node.dataset.strokes = message.strokes;
  settle(message.keys);
}

/** The strokes of `keys` are in the server's drawing now: off the live canvas. */
function settle(keys) {
  confirmed(keys);
  const touched = new Set();
  for (const key of keys) {
    const stroke = live.get(key);
    if (!stroke || stroke === state.current) continue;
    dropOverlay(stroke);
    live.delete(key);
    state.others.delete(key);
    touched.add(stroke.page);
  }
  touched.forEach(redraw);
}

/** Another writer's stroke in progress (their pen messages, passed on by the server). */
export function othersStroke(message) {
  if (message.t === "down") {
    const view = state.pages.find((p) => p.id === message.page);
    if (!view) return;
    const stroke = {
      key: message.k, page: view, points: [message.pt], times: [0], start: performance.now(),
      tool: TOOLS.find((t) => t.name === message.tool) ?? TOOLS[0], color: message.color, width: message.w, writing: true,
    };
    state.others.set(message.k, stroke);
    live.set(message.k, stroke);
    redraw(view);
    return;
  }
  const stroke = state.others.get(message.k);
  if (!stroke) return;
  if (message.t === "move") addPoints(stroke, message.pts);
  else finishStroke(stroke);
}

export function sizeCanvas(view) {
  const ratio = window.devicePixelRatio || 1;
  const rect = view.node.getBoundingClientRect();
  view.canvas.width = Math.max(1, Math.round(rect.width * ratio));
  view.canvas.height = Math.max(1, Math.round(rect.height * ratio));
  redraw(view);
}

/** Clears a page's live canvas of what is done with: an eraser's path, strokes neither in progress
 *  nor waiting for the server's word. */
export function clearCanvas(view) {
  for (const [key, stroke] of live) {
    if (stroke.page === view && stroke !== state.current && !state.others.has(key) && !state.unacknowledged.has(key)) {
      dropOverlay(stroke);
      live.delete(key);
    }
  }
  redraw(view);
}

/** Adds points that arrived together to a stroke being written (`{key, points, times, start, …}`) and
 *  draws them. They get one time, as the server gives the points of one message: the widths follow. */
export function addPoints(stroke, points) {
  const at = performance.now() - stroke.start;
  stroke.points.push(...points);
  stroke.times.push(...points.map(() => at));
  stroke.writing = true;
  live.set(stroke.key, stroke);
  drawMore(stroke);
}

/** The pen of a stroke being written lifted: the stroke goes onto the live canvas, whole. */
export function finishStroke(stroke) {
  stroke.writing = false;
  dropOverlay(stroke);
  redraw(stroke.page);
}

/** Draws a page's live canvas again: every stroke on it not yet in the server's drawing and no longer
 *  being written, whole, in the shape the server's SVG will give it (so nothing moves when that
 *  replaces it); strokes being written go on their own canvases, made again if the page's changed size. */
function redraw(view) {
  const context = view.canvas.getContext("2d");
  context.clearRect(0, 0, view.canvas.width, view.canvas.height);
  const scale = view.canvas.width / view.width;
  for (const stroke of live.values()) {
    if (stroke.page !== view) continue;
    if (!stroke.writing) drawLive(context, stroke, scale, view.tolerance ?? 0.3);
    else if (stroke.overlay?.done.width !== view.canvas.width) drawMore(stroke);
  }
}

const ERASER_GREY = "rgb(128,128,128)";
/** An eraser's path shows at this opacity while it is written. */
const ERASER_OPACITY = 0.35;

function drawLive(context, stroke, scale, tolerance) {
  const tool = stroke.tool.name;
  if (tool === "eraser" && stroke.tool.erase === "stroke") return; // its path goes when it lifts
  context.save();
  if (tool === "eraser") {
    context.globalAlpha = ERASER_OPACITY;
  } else {
    const look = lookOf(tool);
    context.globalAlpha = look.opacity;
    context.globalCompositeOperation = look.blend;
  }
  paint(context, stroke, outline(tool, stroke.width, stroke.points, stroke.times, tolerance, scale));
  context.restore();
}

/** Fills a stroke's outline (`[{ path, shade }]`) in its colour, the pencil's shades mixed with white. */
function paint(context, stroke, parts) {
  for (const { path, shade } of parts) {
    context.fillStyle = stroke.tool.name === "eraser" ? ERASER_GREY : shade < 1 ? mixWithWhite(stroke.color, shade) : stroke.color;
    context.fill(path, "nonzero");
  }
}

/** Draws what is new of a stroke being written on its own canvases (made first, or again when the
 *  page's size changed, with all of it): on the one, what became final; the other, its tip, is
 *  cleared where it was drawn last and drawn again. Both are opaque, in a layer at the tool's opacity. */
function drawMore(stroke) {
  const view = stroke.page;
  let overlay = stroke.overlay;
  if (overlay?.done.width !== view.canvas.width) {
    dropOverlay(stroke);
    const [done, tip] = [el("canvas"), el("canvas", { class: "tip" })];
    [done.width, done.height] = [view.canvas.width, view.canvas.height];
    const node = el("div", { class: "writing" }, done, tip);
    node.style.opacity = String(stroke.tool.name === "eraser" ? ERASER_OPACITY : lookOf(stroke.tool.name).opacity);
    view.node.append(node);
    const growing = new GrowingStroke(stroke.tool.name, stroke.width, stroke.points, stroke.times, view.tolerance ?? 0.3);
    const css = view.node.getBoundingClientRect().width / done.width || 1; // CSS pixels a device pixel
    overlay = stroke.overlay = { node, done, tip, growing, css, origin: null, lines: 0 };
    // The tip's canvas is only as big as the tip can be (its reach and a width either way of the pen),
    // moved along with it: a frame copies and composites a canvas's every pixel, a page's are a million.
    sizeTip(overlay, Math.ceil(2 * (growing.reach + 2 * stroke.width) * done.width / view.width) + 8);
  }
  const scale = overlay.done.width / view.width;
  const context = overlay.done.getContext("2d");
  if (stroke.tool.erase === "stroke") {
    // A stroke eraser's path, which removes the strokes it touches when it lifts: a line, drawn on.
    context.strokeStyle = ERASER_GREY;
    context.lineWidth = stroke.width * scale;
    context.lineCap = context.lineJoin = "round";
    context.beginPath();
    const from = Math.max(0, overlay.lines - 1);
    stroke.points.slice(from).forEach(([x, y], i) => (i ? context.lineTo(x * scale, y * scale) : context.moveTo(x * scale, y * scale)));
    context.stroke();
    overlay.lines = stroke.points.length;
    return;
  }
  const { fixed, tip, tipBox } = overlay.growing.advance(scale);
  paint(context, stroke, fixed);
  // The tip, in device pixels with a pixel's room for antialiasing: its canvas moves to hold it when it
  // leaves it (and grows, should it not fit), and is cleared and drawn again.
  const [left, top, right, bottom] = tipBox.map((v) => v * scale);
  const tipContext = overlay.tip.getContext("2d");
  tipContext.setTransform(1, 0, 0, 1, 0, 0);
  tipContext.clearRect(0, 0, overlay.tip.width, overlay.tip.height);
  if (!Number.isFinite(left)) return;
  const box = [left - 2, top - 2, right + 2, bottom + 2];
  if (box[2] - box[0] > overlay.tip.width || box[3] - box[1] > overlay.tip.height) {
    sizeTip(overlay, Math.ceil(2 * Math.max(box[2] - box[0], box[3] - box[1])));
  }
  const side = overlay.tip.width, at = overlay.origin;
  if (!at || box[0] < at[0] || box[1] < at[1] || box[2] > at[0] + side || box[3] > at[1] + side) {
    overlay.origin = [Math.round((box[0] + box[2] - side) / 2), Math.round((box[1] + box[3] - side) / 2)];
    overlay.tip.style.transform = `translate(${overlay.origin[0] * overlay.css}px, ${overlay.origin[1] * overlay.css}px)`;
  }
  tipContext.setTransform(1, 0, 0, 1, -overlay.origin[0], -overlay.origin[1]);
  paint(tipContext, stroke, tip);
}

/** Makes a stroke's tip canvas `side` device pixels square (cleared; placed again at the next draw). */
function sizeTip(overlay, side) {
  overlay.tip.width = overlay.tip.height = side;
  overlay.tip.style.width = overlay.tip.style.height = `${side * overlay.css}px`;
  overlay.origin = null;
}

function dropOverlay(stroke) {
  stroke.overlay?.node.remove();
  stroke.overlay = null;
}

window.addEventListener("resize", () => state.pages.forEach(sizeCanvas));
