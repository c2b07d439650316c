// What the note view's files share: the note, this writer, the tools, and the state of the view.

export const noteID = location.pathname.split("/").filter(Boolean)[1];
const randomID = () => (crypto.randomUUID?.() ?? String(Math.random()).slice(2)).replace(/[^a-zA-Z0-9-]/g, "").slice(0, 36);
/** This tab's writer id, kept across its reloads (sessionStorage): what it sends again after a reload
 *  is still its own to undo. */
export const writer = (() => {
  try {
    const kept = sessionStorage.getItem("inkwell-writer");
    if (kept) return kept;
    const made = randomID();
    sessionStorage.setItem("inkwell-writer", made);
    return made;
  } catch {
    return randomID(); // storage refused: this load is its own writer
  }
})();
/** What this page load's keys start with (the writer, a mark of the load): keys never repeat across reloads. */
const keyPrefix = `${writer}:${randomID().slice(0, 8)}-`;
/** A new key of this writer, for a stroke, an erasure, an undo or a redo the server confirms by it. */
export const newKey = () => `${keyPrefix}${++state.sequence}`;
/** The tools in the toolbar's order; `icon` names the toolbar's drawing of it. A stroke's nominal width
 *  (page pixels, stored with it) is the tool's `widths` for the chosen pen width, or else its `width` times
 *  the width's factor. The pen and pencil have their own: their style draws 0.3 (pencil 0.55) of the
 *  nominal width at no pressure and all of it at full, and the page is shown 900 of its 1,404 pixels
 *  wide, so a thin pen of 3 was a hairline on screen (1.25 CSS px at pressure 0.5, 1.9 at full); 7 draws
 *  2.9 CSS px there at pressure 0.5, 4.5 at full (docs/serve.md, *Pen widths*). */
export const TOOLS = [
  { name: "pen", label: "Pen", icon: "pen", width: 3, widths: [7, 11, 18] },
  { name: "pencil", label: "Pencil", icon: "pencil", width: 3, widths: [7, 11, 18] },
  { name: "marker", label: "Marker", icon: "marker", width: 8 },
  { name: "highlighter", label: "Highlighter", icon: "highlighter", width: 24, color: "#ffe14d" },
  { name: "eraser", label: "Stroke eraser", icon: "eraser", width: 30, erase: "stroke" },
  { name: "eraser", label: "Precise eraser", icon: "cut", width: 30, erase: "split" },
];
/** Ink colours, named as a screen reader says them. */
export const COLORS = [
  { name: "Black", value: "#000000" },
  { name: "Blue", value: "#1f4fbf" },
  { name: "Red", value: "#c0262d" },
  { name: "Green", value: "#207a3c" },
];
/** Pen widths, as factors of the tool's width (unless it names its own `widths`), and their names. */
export const WIDTHS = [
  { name: "Thin", factor: 1 },
  { name: "Medium", factor: 2 },
  { name: "Thick", factor: 4 },
];

export const state = {
  socket: null,
  title: "",            // the note's (kept with its pages for a reload offline)
  pages: [],            // { id, width, height, node, ink, canvas }
  tool: TOOLS[0],
  color: COLORS[0].value,
  widthIndex: 0,        // the chosen pen width (WIDTHS)
  sequence: 0,
  current: null,        // the stroke being drawn: { key, page, points, tool, color, width, erase }
  others: new Map(),    // strokes other writers are drawing now, by key (drawn live, as they come)
  zoom: 1,
  unacknowledged: new Map(), // key → messages of strokes the server has not confirmed
  saving: { state: "" }, // the server's last word on saving ({ state, in, reason })
  connection: "connecting", // "open" once the session said hello, "lost" while the server is out of reach
  leaving: false,
  log: [],              // what arrived, with times (for tests and diagnostics)
};
window.inkwell = state;
