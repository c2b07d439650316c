// What the note view's files share: the note, this writer, the tools, and the state of the view.

export const noteID = location.pathname.split("/").filter(Boolean)[1];
export const writer = (crypto.randomUUID?.() ?? String(Math.random()).slice(2)).replace(/[^a-zA-Z0-9-]/g, "").slice(0, 36);
export const TOOLS = [
  { name: "pen", label: "Pen", width: 3 },
  { name: "pencil", label: "Pencil", width: 3 },
  { name: "marker", label: "Marker", width: 8 },
  { name: "highlighter", label: "Highlighter", width: 24, color: "#ffe14d" },
  { name: "eraser", label: "Eraser", width: 30, erase: "stroke" },
  { name: "eraser", label: "Cut", width: 30, erase: "split" },
];
export const COLORS = ["#000000", "#1f4fbf", "#c0262d", "#207a3c"];
export const WIDTHS = [1, 2, 4];

export const state = {
  socket: null,
  title: "",            // the note's (kept with its pages for a reload offline)
  pages: [],            // { id, width, height, node, ink, canvas }
  tool: TOOLS[0],
  color: COLORS[0],
  widthFactor: 1,
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
