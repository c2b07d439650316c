// Downloads: the note as PDF, PNG (1×, 2×, 3×) or Markdown, or its notebook as a ZIP.
import { noteID, state } from "/assets/note-state.js";

/** Starts the download `choice` names (a value of the Download menu). */
export function download(choice) {
  if (!choice) return;
  const url = choice === "zip"
    ? `/api/notebooks/export?notebook=${encodeURIComponent(state.notebook ?? "Inbox")}`
    : choice.startsWith("png")
      ? `/api/notes/${noteID}/export?format=png&scale=${choice.slice(3)}`
      : `/api/notes/${noteID}/export?format=${choice}`;
  // Saved first: an export reads the stored pages.
  location.href = url;
}
