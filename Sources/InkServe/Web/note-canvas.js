// The pages: each is the server's drawing of the saved ink (SVG) under a live canvas, on which the
// stroke being written, and other writers' strokes in progress, are drawn at once, before the
// server's outline arrives.
import { el } from "/assets/api.js";
import { drawnPressures, strokeWidth } from "/assets/ink-width.js";
import { confirmed } from "/assets/note-connection.js";
import { TOOLS, state } from "/assets/note-state.js";

export function showPages(pages) {
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

export function updatePage(message) {
  let view = state.pages.find((p) => p.id === message.id);
  if (!view) view = addPageView(message);
  view.ink.innerHTML = message.svg;
  view.node.dataset.strokes = message.strokes;
  confirmed(message.keys);
  for (const key of message.keys) state.others.delete(key);
  if (!state.current || state.current.page !== view) clearCanvas(view);
  // What others are still writing on this page stays on the canvas.
  for (const stroke of state.others.values()) if (stroke.page === view) drawLive(stroke, 1);
}

/** Another writer's stroke in progress (their pen messages, passed on by the server). */
export function othersStroke(message) {
  if (message.t === "down") {
    const view = state.pages.find((p) => p.id === message.page);
    if (!view) return;
    state.others.set(message.k, {
      key: message.k, page: view, points: [message.pt], times: [0], start: performance.now(),
      tool: TOOLS.find((t) => t.name === message.tool) ?? TOOLS[0], color: message.color, width: message.w,
    });
    return;
  }
  const stroke = state.others.get(message.k);
  if (!stroke || message.t !== "move") return;
  addPoints(stroke, message.pts);
}

export function sizeCanvas(view) {
  const ratio = window.devicePixelRatio || 1;
  const rect = view.node.getBoundingClientRect();
  view.canvas.width = Math.max(1, Math.round(rect.width * ratio));
  view.canvas.height = Math.max(1, Math.round(rect.height * ratio));
}

export function clearCanvas(view) {
  view.canvas.getContext("2d").clearRect(0, 0, view.canvas.width, view.canvas.height);
}

/** Adds points that arrived together to a stroke being written (`{points, times, start, …}`) and draws
 *  them. They get one time, as the server gives the points of one message: the widths follow. */
export function addPoints(stroke, points) {
  const at = performance.now() - stroke.start;
  stroke.points.push(...points);
  stroke.times.push(...points.map(() => at));
  drawLive(stroke, stroke.points.length - points.length);
}

/** Draws a stroke being written from its point `from` on, at once, before the server's outline
 *  arrives: each piece as wide as InkGeometry will draw it. */
function drawLive(stroke, from) {
  const view = stroke.page;
  const context = view.canvas.getContext("2d");
  const scale = view.canvas.width / view.width;
  context.lineCap = "round";
  context.lineJoin = "round";
  const erasing = stroke.tool.name === "eraser";
  context.strokeStyle = erasing ? "rgba(128,128,128,0.35)" : stroke.color;
  context.globalAlpha = stroke.tool.name === "highlighter" ? 0.35 : 1;
  const { points } = stroke;
  const pressures = drawnPressures(stroke.tool.name, stroke.width, points, stroke.times);
  for (let i = Math.max(1, from); i < points.length; i++) {
    context.lineWidth = Math.max(1, strokeWidth(stroke.tool.name, stroke.width, pressures[i]) * scale);
    context.beginPath();
    context.moveTo(points[i - 1][0] * scale, points[i - 1][1] * scale);
    context.lineTo(points[i][0] * scale, points[i][1] * scale);
    context.stroke();
  }
}

window.addEventListener("resize", () => state.pages.forEach(sizeCanvas));
