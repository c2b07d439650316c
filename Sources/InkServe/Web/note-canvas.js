// The pages: each is the server's drawing of the saved ink (SVG) under a live canvas, on which the
// stroke being written, and other writers' strokes in progress, are drawn at once, before the
// server's outline arrives.
import { el } from "/assets/api.js";
import { strokeWidth } from "/assets/ink-width.js";
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
  for (const stroke of state.others.values()) if (stroke.page === view) drawLive(stroke, stroke.points.slice(1), stroke.points[0]);
}

/** Another writer's stroke in progress (their pen messages, passed on by the server). */
export function othersStroke(message) {
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

export function sizeCanvas(view) {
  const ratio = window.devicePixelRatio || 1;
  const rect = view.node.getBoundingClientRect();
  view.canvas.width = Math.max(1, Math.round(rect.width * ratio));
  view.canvas.height = Math.max(1, Math.round(rect.height * ratio));
}

export function clearCanvas(view) {
  view.canvas.getContext("2d").clearRect(0, 0, view.canvas.width, view.canvas.height);
}

/** Draws new points of a stroke being written at once, before the server's outline arrives. */
export function drawLive(stroke, points, from = null) {
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
    context.lineWidth = Math.max(1, strokeWidth(stroke.tool.name, stroke.width, point[2]) * scale);
    context.beginPath();
    context.moveTo(previous[0] * scale, previous[1] * scale);
    context.lineTo(point[0] * scale, point[1] * scale);
    context.stroke();
    previous = point;
  }
}

window.addEventListener("resize", () => state.pages.forEach(sizeCanvas));
