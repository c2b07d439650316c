// How wide ink is: the rules InkGeometry draws saved strokes with, so that what the browser draws
// live (and in the replay) is as wide as what the server draws once the stroke is saved. Ports of
// Sources/InkGeometry/StrokeStyle.swift, `StrokeStyle.radius(nominalWidth:pressure:)` (width =
// nominal × (minWidth + (maxWidth − minWidth) × curve(pressure)), pressure clamped to 0…1, the
// linear curve of InkStyle.standard) with the tools' styles there (`StrokeStyle.pen`, `.pencil`,
// `.marker`, `.highlighter`; Sources/InkRender/InkStyle.swift: erasers take the pen's), and of
// Sources/InkGeometry/StrokeGeometry.swift, `pressureSeries` (pressure made up from the pen's speed
// when every point of a stroke has the same pressure, as a mouse's do). Erasers erase with their
// whole nominal width whatever the pressure (Sources/InkGeometry/Erasing.swift). Tapers and
// smoothing are not ported. Keep the numbers equal to the Swift ones.

/** Each tool's StrokeStyle: minWidth and maxWidth (fractions of the nominal width) and whether
 *  pressure is made up from speed when the stroke has none (`PressureSimulation.automatic`; the
 *  highlighter's is `.never`). */
const STYLES = {
  pen: { minWidth: 0.3, maxWidth: 1.0, simulate: true },        // StrokeStyle.pen (the defaults)
  fineliner: { minWidth: 0.85, maxWidth: 1.0, simulate: true }, // StrokeStyle.fineliner
  pencil: { minWidth: 0.55, maxWidth: 1.0, simulate: true },    // StrokeStyle.pencil
  marker: { minWidth: 0.75, maxWidth: 1.0, simulate: true },    // StrokeStyle.marker
  highlighter: { minWidth: 1, maxWidth: 1, simulate: false },   // StrokeStyle.highlighter
};

const styleOf = (tool) => STYLES[tool] ?? STYLES.pen;

/** The width of a stroke of `tool` (a tool name) and nominal `width` at `pressure` (0…1), in page pixels. */
export function strokeWidth(tool, width, pressure) {
  if (tool === "eraser") return width;
  const style = styleOf(tool);
  const p = Math.min(1, Math.max(0, pressure));
  return width * (style.minWidth + (style.maxWidth - style.minWidth) * p);
}

/** The pressure InkGeometry draws each point of a stroke with: the recorded one (`[x, y, pressure, …]`),
 *  or, when all are equal, one made up from the speed, `times` being each point's milliseconds since
 *  the pen went down (`StrokeGeometry.pressureSeries`). */
export function drawnPressures(tool, width, points, times) {
  const recorded = points.map((point) => Number.isFinite(point[2]) ? Math.min(1, Math.max(0, point[2])) : 0.5);
  const first = recorded[0];
  const constant = recorded.every((p) => Math.abs(p - first) < 1e-4);
  if (!(constant && styleOf(tool).simulate)) return constant && first === 0 ? recorded.map(() => 0.5) : recorded;
  if (points.length < 2) return [0.6];
  const nominal = Number.isFinite(width) && width > 0 ? width : 1;
  // Speed in nominal widths per millisecond; samples without usable times are taken as 8 ms apart.
  const timed = times[times.length - 1] > times[0];
  const speeds = points.map((point, i) => {
    if (i === 0) return 0;
    const d = Math.hypot(point[0] - points[i - 1][0], point[1] - points[i - 1][1]);
    const dt = timed ? Math.max(0.5, times[i] - times[i - 1]) : 8;
    return d / dt / nominal;
  });
  speeds[0] = speeds[1];
  // Full pressure when still, the least at a quarter of the nominal width per millisecond and above.
  const target = (v) => {
    const u = Math.min(1, v / 0.25);
    return 1 - 0.7 * u * u * (3 - 2 * u);
  };
  let p = target(speeds[0]);
  return speeds.map((v) => (p += (target(v) - p) * 0.35));
}
