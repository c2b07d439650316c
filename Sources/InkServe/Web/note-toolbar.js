// The toolbar's tools: a button a tool (its icon, named), a colour (a swatch, named) and a pen width
// (a dot as big as it is wide), each group pressed one at a time; choosing sets the view's state.
import { el } from "/assets/api.js";
import { COLORS, TOOLS, WIDTHS, state } from "/assets/note-state.js";

/** Each tool's drawing: SVG paths on a 24 × 24 grid, stroked in the text colour (`fill`: filled too). */
const ICONS = {
  pen: ["M12 21L7 12l5-9 5 9z", "M12 21v-7.5", "fill:M12 10.5a1.5 1.5 0 1 0 0.01 0z"],
  pencil: ["M16 3.5l4.5 4.5L8 20.5H3.5V16z", "M13.5 6l4.5 4.5", "M3.5 16l4.5 4.5"],
  marker: ["M14 3l7 7-8 8-7-7z", "M6 11l-2.5 7 2.5 2.5 7-2.5"],
  highlighter: ["M15 3l6 6-7 7-6-6z", "M8 10l-2 5 3 3 5-2", "wide:M3 21.5h12"],
  eraser: ["M8 20l-4.5-4.5L14 5l6.5 6.5L12 20z", "M9 10.5l6.5 6.5", "M12 20h9"],
  cut: ["M9 16l-3-3 7-7 4.5 4.5L12 16z", "M9.5 9.5l4.5 4.5", "M2.5 20.5h5M16.5 20.5h5"],
};

function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  for (const spec of ICONS[name]) {
    const [kind, d] = spec.includes(":") ? spec.split(":") : ["", spec];
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", d);
    if (kind) path.setAttribute("class", kind);
    svg.append(path);
  }
  return svg;
}

/** Fills `tools` (the toolbar's group) with the tools, colours and widths; the first of each is chosen. */
export function buildToolbar(tools) {
  const choice = (className, index, label, choose, ...content) => el("button", {
    type: "button", class: className, title: label, "aria-label": label, "aria-pressed": String(index === 0),
    onclick: () => {
      choose();
      tools.querySelectorAll(`.${className}`).forEach((node, i) => node.setAttribute("aria-pressed", String(i === index)));
    },
  }, ...content);
  tools.append(
    el("span", { class: "group" }, TOOLS.map((tool, index) => {
      const button = choice("tool", index, tool.label, () => { state.tool = tool; }, icon(tool.icon));
      Object.assign(button.dataset, { tool: tool.name, index });
      return button;
    })),
    el("span", { class: "group" }, COLORS.map((color, index) =>
      choice("swatch", index, color.name, () => { state.color = color.value; },
        el("span", { class: "chip", style: `background: ${color.value}` })))),
    el("span", { class: "group" }, WIDTHS.map((width, index) =>
      choice("width", index, `${width.name} pen`, () => { state.widthIndex = index; },
        el("span", { class: "dot", style: `--factor: ${width.factor}` })))));
}
