// The navigation (the toolbar): shown and hidden as the session says. While the server is out of
// reach the page applies the session's rule itself, with the session's numbers (rules.js): a double
// tap in the top band, or reaching for it (the top edge, its handle, Esc, a use of it), shows it for
// navigationHideAfterReveal seconds, and a pen down hides it; so offline the tools and the way back
// stay within reach. It never hides while keyboard focus is in it (the page asks the session to keep
// it up), and the pages start below it, however many rows it takes.
import { connected, send } from "/assets/note-connection.js";
import { navigation, tap } from "/assets/note-messages.js";
import { RULES } from "/assets/rules.js";

let hideTimer = null;
let askedAt = -Infinity;

/** Whether keyboard focus (not a click's) is in the navigation. */
export const keyboardInNavigation = () => document.querySelector("#nav :focus-visible") !== null;

/** Shows or hides the navigation: the session's word, or the page's own while offline; a hide
 *  while the keyboard is in it is answered with a use of it. */
export function showNavigation(visible) {
  clearTimeout(hideTimer);
  if (!visible && keyboardInNavigation()) return wantNavigation(true);
  document.body.dataset.nav = visible ? "shown" : "hidden";
}

/** Keeps the pages' top margin at the navigation's height (`--nav-height`), as it wraps or resizes. */
export function keepPagesBelow(nav) {
  new ResizeObserver(() => document.documentElement.style.setProperty("--nav-height", `${nav.offsetHeight}px`)).observe(nav);
}

function revealOffline() {
  showNavigation(true);
  hideTimer = setTimeout(() => showNavigation(false), RULES.ink.navigationHideAfterReveal * 1000);
}

/** The writer wants the navigation (shown, or kept up): at once when it is hidden or the writer used
 *  it (`now`), otherwise at most once a second (a pointer resting over it). */
export function wantNavigation(now) {
  const hidden = document.body.dataset.nav !== "shown";
  const at = performance.now();
  if (!now && !hidden && at - askedAt < 1000) return;
  if (!now && hidden && at - askedAt < 250) return;
  askedAt = at;
  if (connected()) send(navigation()); else revealOffline();
}

/** A tap (`count` 1 or 2) at page units `x` from the page's left and `y` from the screen's top. */
export function tapAt(x, y, count) {
  if (connected()) send(tap(x, y, count));
  else if (count >= 2 && y >= 0 && y < RULES.ink.topEdgeBand) revealOffline();
}

/** A stroke starts (its down is being sent): the pen leaves the navigation, keyboard focus too. */
export function penDown() {
  if (document.getElementById("nav").contains(document.activeElement)) document.activeElement.blur();
  if (!connected()) showNavigation(false);
}
