// Every message the note page sends its editor session, built here and nowhere else: the client side
// of Sources/InkServe/LiveMessages.swift (`ClientMessage`), which decodes them.

/** A stroke starts: its key (writer:sequence), page id, first point `[x, y, pressure, tiltX, tiltY]`,
 *  tool name, colour (#rrggbb) and nominal width. */
export const strokeDown = (key, page, point, tool, color, width) => ({ t: "down", k: key, page, pt: point, tool, color, w: width });
/** More points of stroke `key`. */
export const strokeMove = (key, points) => ({ t: "move", k: key, pts: points });
/** The pen lifts from stroke `key`. */
export const strokeUp = (key) => ({ t: "up", k: key });
/** A stroke eraser's path on `page` (at most RULES.limits.points points), `radius` page units wide each
 *  side; `key` names it as a stroke's key does (kept until confirmed, applied once). */
export const eraseAlong = (page, points, radius, key) => ({ t: "eraseAlong", page, pts: points, r: radius, k: key });
/** A tap (`count` 1 or 2) at page units `x` from the page's left and `y` from the screen's top. */
export const tap = (x, y, count) => ({ t: "tap", x, y, n: count });
/** The navigation was used: the session keeps it up. */
export const navigation = () => ({ t: "nav" });
/** This writer's latest stroke or erasure taken back; `key` as for an erasure. */
export const undo = (key) => ({ t: "undo", k: key });
/** This writer's latest undone stroke or erasure done again; `key` as for an erasure. */
export const redo = (key) => ({ t: "redo", k: key });
/** A new page after the last, of `template` (its name). */
export const addPage = (template) => ({ t: "addPage", template });
export const leave = () => ({ t: "leave" });
/** The answer to "leave with unsaved changes?": save, discard or stay. */
export const answer = (choice) => ({ t: "answer", a: choice });
/** The tab was hidden or shown. */
export const visibility = (hidden) => ({ t: "visibility", hidden });
/** The whole of `page`, please: an update came for a page this tab does not show. */
export const sendPage = (page) => ({ t: "sendPage", page });
