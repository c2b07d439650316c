// How wide a stroke is at a pressure: the rule InkGeometry draws saved strokes with, so what the
// browser draws live is as wide as what the server draws once the stroke is saved. A port of
// `StrokeStyle.radius(nominalWidth:pressure:)` in Sources/InkGeometry/StrokeStyle.swift (width =
// nominal × (minWidth + (maxWidth − minWidth) × curve(pressure)), pressure clamped to 0…1, the
// linear curve of InkStyle.standard) with the tools' styles there (`StrokeStyle.pen`, `.pencil`,
// `.marker`, `.highlighter`; Sources/InkRender/InkStyle.swift: erasers take the pen's). Erasers
// erase with their whole nominal width whatever the pressure (Sources/InkGeometry/Erasing.swift).
// Keep the numbers equal to the Swift ones.

/** minWidth and maxWidth of each tool's StrokeStyle, as fractions of the nominal width. */
const STYLES = {
  pen: { minWidth: 0.3, maxWidth: 1.0 },        // StrokeStyle.pen (the defaults)
  fineliner: { minWidth: 0.85, maxWidth: 1.0 }, // StrokeStyle.fineliner
  pencil: { minWidth: 0.55, maxWidth: 1.0 },    // StrokeStyle.pencil
  marker: { minWidth: 0.75, maxWidth: 1.0 },    // StrokeStyle.marker
  highlighter: { minWidth: 1, maxWidth: 1 },    // StrokeStyle.highlighter
};

/** The width of a stroke of `tool` (a tool name) and nominal `width` at `pressure` (0…1), in page pixels. */
export function strokeWidth(tool, width, pressure) {
  if (tool === "eraser") return width;
  const style = STYLES[tool] ?? STYLES.pen;
  const p = Number.isFinite(pressure) ? Math.min(1, Math.max(0, pressure)) : 0.5;
  return width * (style.minWidth + (style.maxWidth - style.minWidth) * p);
}
