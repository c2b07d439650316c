// Replay: the page in view played back in a player over the note, at the recording's own pace
// (1×, 4×, 16×), with a scrubber.
import { api } from "/assets/api.js";
import { drawnPressures, strokeWidth } from "/assets/ink-geometry.js";
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
  const width = Math.min(window.innerWidth - 32, 900);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${width * data.height / data.width}px`;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(width * data.height / data.width * ratio);
  const scale = canvas.width / data.width;
  const strokes = data.strokes.filter((s) => s.tool !== "eraser");
  for (const stroke of strokes) stroke.pressures = drawnPressures(stroke.tool, stroke.width, stroke.points, stroke.points.map((p) => p[3]));
  // The recording's time: strokes keep their start times; points their times since the pen went down.
  const end = Math.max(1, ...strokes.map((s) => s.start + (s.points.at(-1)?.[3] ?? 0)));
  let position = 0;
  let playing = true;
  let last = performance.now();
  const context = canvas.getContext("2d");
  function draw(upTo) {
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.lineCap = "round";
    context.lineJoin = "round";
    for (const stroke of strokes) {
      if (stroke.start > upTo) break;
      context.strokeStyle = stroke.color;
      context.globalAlpha = stroke.tool === "highlighter" ? 0.35 : 1;
      for (let i = 1; i < stroke.points.length; i++) {
        const [x0, y0] = stroke.points[i - 1];
        const [x1, y1, , t] = stroke.points[i];
        if (stroke.start + t > upTo) break;
        context.lineWidth = Math.max(1, strokeWidth(stroke.tool, stroke.width, stroke.pressures[i]) * scale);
        context.beginPath();
        context.moveTo(x0 * scale, y0 * scale);
        context.lineTo(x1 * scale, y1 * scale);
        context.stroke();
      }
    }
    context.globalAlpha = 1;
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
  document.getElementById("player-close").onclick = () => { player.hidden = true; };
  requestAnimationFrame(frame);
}
