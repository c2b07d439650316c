// Replay: the page in view played back in a player over the note, at the recording's own pace
// (1×, 4×, 16×), with a scrubber; each stroke in the shape the page draws it (ink-geometry.js).
import { api } from "/assets/api.js";
import { lookOf, mixWithWhite, outline } from "/assets/ink-geometry.js";
import { noteID, state } from "/assets/note-state.js";

export async function replay() {
  const view = state.pages.find((p) => p.node.getBoundingClientRect().bottom > 0) ?? state.pages[0];
  if (!view) return;
  const data = await api("GET", `/api/notes/${noteID}/pages/${view.id}/strokes`);
  const player = document.getElementById("player");
  const canvas = document.getElementById("player-canvas");
  const scrub = document.getElementById("player-scrub");
  const speedSelect = document.getElementById("player-speed");
  const play = document.getElementById("player-play");
  player.hidden = false;
  const ratio = window.devicePixelRatio || 1;
  // The page as large as the window holds it with the controls under it (a tall page on a wide,
  // low screen is as high as the window, not as wide).
  const controls = player.querySelector(".controls")?.getBoundingClientRect().height || 48;
  const width = Math.min(window.innerWidth - 32, 900, (window.innerHeight - controls - 48) * data.width / data.height);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${width * data.height / data.width}px`;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(width * data.height / data.width * ratio);
  const scale = canvas.width / data.width;
  const strokes = data.strokes.filter((s) => s.tool !== "eraser");
  const tolerance = state.pages.find((p) => p.id === view.id)?.tolerance ?? 0.3;
  // Each stroke's outline up to its point `count` (the whole stroke's is kept once it is reached).
  const shape = (stroke, count) => {
    if (count === stroke.points.length && stroke.whole) return stroke.whole;
    const points = stroke.points.slice(0, count);
    const drawn = outline(stroke.tool, stroke.width, points, points.map((p) => p[3]), tolerance, scale);
    if (count === stroke.points.length) stroke.whole = drawn;
    return drawn;
  };
  // The recording's time: strokes keep their start times; points their times since the pen went down.
  const end = Math.max(1, ...strokes.map((s) => s.start + (s.points.at(-1)?.[3] ?? 0)));
  let position = 0;
  let playing = true;
  let last = performance.now();
  const context = canvas.getContext("2d");
  function draw(upTo) {
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    for (const stroke of strokes) {
      if (stroke.start > upTo) break;
      let count = 0;
      while (count < stroke.points.length && stroke.start + stroke.points[count][3] <= upTo) count++;
      if (!count) continue;
      const look = lookOf(stroke.tool);
      context.globalAlpha = look.opacity;
      context.globalCompositeOperation = look.blend;
      for (const { path, shade } of shape(stroke, count)) {
        context.fillStyle = shade < 1 ? mixWithWhite(stroke.color, shade) : stroke.color.slice(0, 7);
        context.fill(path, "nonzero");
      }
    }
    context.globalAlpha = 1;
    context.globalCompositeOperation = "source-over";
  }
  function frame(now) {
    if (player.hidden) return;
    if (playing) position = Math.min(end, position + (now - last) * Number(speedSelect.value));
    last = now;
    scrub.value = String(Math.round(position / end * 1000));
    draw(position);
    if (position >= end) { playing = false; play.textContent = "Play"; }
    requestAnimationFrame(frame);
  }
  play.onclick = () => {
    if (position >= end) position = 0;
    playing = !playing;
    play.textContent = playing ? "Pause" : "Play";
  };
  scrub.oninput = () => { position = Number(scrub.value) / 1000 * end; };
  // Closed by its button or by Esc.
  const close = () => {
    player.hidden = true;
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (event) => { if (event.key === "Escape") close(); };
  document.addEventListener("keydown", onKey);
  document.getElementById("player-close").onclick = close;
  requestAnimationFrame(frame);
}
