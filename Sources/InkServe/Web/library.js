// The library view: notebooks (a side bar, folded on a narrow screen), notes (grid or list), tag
// filters, search, and the note actions.
import { api, ask, confirmChoice, el, toast } from "/assets/api.js";

const state = {
  listing: { notebooks: [], notes: [] },
  notebook: null,          // null: every notebook; "#trash": the trash
  tags: new Set(),         // tag filter (AND)
  view: localStorage.getItem("inkwell.view") === "list" ? "list" : "grid",
};
window.inkwell = state;

async function load() {
  state.listing = await api("GET", "/api/library");
  render();
}

function render() {
  renderNotebooks();
  renderTagFilter();
  if (state.notebook === "#trash") return renderTrash();
  const search = document.getElementById("search").value.trim();
  if (search || state.tags.size) return runSearch(search);
  document.getElementById("results").hidden = true;
  const notes = state.listing.notes.filter((note) =>
    state.notebook === null || note.notebook === state.notebook || note.notebook.startsWith(`${state.notebook}/`));
  renderNotes(notes);
}

function renderNotebooks() {
  const nav = document.getElementById("notebooks");
  const item = (label, value, depth = 0) => indent(el("button", {
    type: "button", class: "notebook", "aria-current": state.notebook === value ? "true" : "false",
    onclick: () => { state.notebook = value; foldSidebar(true); render(); },
  }, label), depth);
  nav.replaceChildren(
    item("All notes", null),
    ...state.listing.notebooks.map((path) => item(path.split("/").at(-1), path, path.split("/").length - 1)),
    item("Trash", "#trash"),
    el("button", { type: "button", class: "notebook add", onclick: newNotebook }, "+ Notebook"));
}

function indent(node, depth) {
  node.style.paddingLeft = `${0.75 + depth}rem`;
  return node;
}

function renderTagFilter() {
  const all = [...new Set(state.listing.notes.flatMap((note) => note.tags))].sort();
  document.getElementById("tag-filter").replaceChildren(...all.map((tag) => el("button", {
    type: "button", class: "tag", "aria-pressed": state.tags.has(tag) ? "true" : "false",
    onclick: () => { state.tags.has(tag) ? state.tags.delete(tag) : state.tags.add(tag); render(); },
  }, `#${tag}`)));
}

function renderNotes(notes) {
  const container = document.getElementById("notes");
  container.className = state.view;
  container.hidden = false;
  const toggle = document.getElementById("view-toggle");
  const other = state.view === "grid" ? "Show as a list" : "Show as a grid";
  Object.assign(toggle.dataset, { view: state.view });
  toggle.title = other;
  toggle.setAttribute("aria-label", other);
  if (!notes.length) {
    container.replaceChildren(el("p", { class: "empty" }, "No notes here yet. Start one with “New note”."));
    return;
  }
  container.innerHTML = notes.map(card).join("");
}

function statusText(status) {
  return Object.entries(status).map(([name, count]) => `${count} ${name}`).join(" · ");
}

const escapeHTML = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** A note's card as HTML (one string for all cards is far quicker than a thousand element trees). */
function card(note) {
  const href = `/notes/${escapeHTML(note.id)}`;
  const thumb = note.thumbnail
    ? `<img src="${escapeHTML(note.thumbnail)}" loading="lazy" alt="" width="256" height="341">`
    : `<span class="blank"></span>`;
  const tags = note.tags.map((tag) => `<span class="tag">#${escapeHTML(tag)}</span>`).join("");
  return `<article class="note" draggable="true" data-id="${escapeHTML(note.id)}">
<a href="${href}" class="thumb" tabindex="-1" aria-hidden="true">${thumb}</a>
<div class="meta"><a href="${href}" class="title">${note.pinned ? `<span aria-hidden="true">★ </span><span class="visually-hidden">Pinned: </span>` : ""}${escapeHTML(note.title)}</a>
<span class="where">${escapeHTML(note.notebook)}</span><span class="status">${escapeHTML(statusText(note.status))}</span>
<span class="tags">${tags}</span>
<span class="actions"><button type="button" data-action="pin">${note.pinned ? "Unpin" : "Pin"}</button><button type="button" data-action="rename">Rename</button><button type="button" data-action="tags">Tags</button><button type="button" data-action="move">Move</button><button type="button" data-action="delete">Delete</button></span></div>
</article>`;
}

/** The cards' buttons and drag-to-reorder, handled once for the whole list. */
function listenToCards(container) {
  const noteOf = (event) => {
    const id = event.target.closest(".note")?.dataset.id;
    return state.listing.notes.find((note) => note.id === id);
  };
  container.addEventListener("click", (event) => {
    const action = event.target.closest("button[data-action]")?.dataset.action;
    const note = action && noteOf(event);
    if (!note) return;
    ({
      pin: () => change(note, { pinned: !note.pinned }),
      rename: () => rename(note),
      tags: () => retag(note),
      move: () => move(note),
      delete: () => remove(note),
    })[action]();
  });
  container.addEventListener("dragstart", (event) => {
    const note = noteOf(event);
    if (note) event.dataTransfer.setData("text/x-inkwell-note", note.id);
  });
  container.addEventListener("dragover", (event) => { if (event.target.closest(".note")) event.preventDefault(); });
  container.addEventListener("drop", async (event) => {
    const note = noteOf(event);
    const dragged = event.dataTransfer.getData("text/x-inkwell-note");
    if (!note || !dragged || dragged === note.id) return;
    event.preventDefault();
    // Dropped on a note: placed before it, in its notebook (the same .order file as `note move`).
    await change({ id: dragged }, { notebook: note.notebook, place: `before:${note.id}` });
  });
}

async function change(note, body) {
  try {
    await api("PATCH", `/api/notes/${note.id}`, body);
    await load();
  } catch (error) {
    toast(error.message, "error");
  }
}

async function rename(note) {
  const title = await ask("New title", note.title, "Rename");
  if (title !== null) await change(note, { title });
}

async function retag(note) {
  const answer = await ask("Tags to add (word) or remove (-word)", note.tags.join(" "), "Apply");
  if (answer === null) return;
  const words = answer.split(/[\s,]+/).filter(Boolean).map((w) => w.replace(/^#/, ""));
  const wanted = new Set(words.filter((w) => !w.startsWith("-")));
  const removeTags = [...words.filter((w) => w.startsWith("-")).map((w) => w.slice(1).replace(/^#/, "")),
    ...note.tags.filter((t) => !wanted.has(t))];
  await change(note, { addTags: [...wanted], removeTags: [...new Set(removeTags)] });
}

async function move(note) {
  const notebook = await ask("Move to notebook", note.notebook, "Move");
  if (notebook === null) return;
  try {
    await api("PATCH", `/api/notes/${note.id}`, { notebook, place: "first" });
  } catch (error) {
    // A notebook that does not exist is made only when asked for (the server says so with 422).
    if (error.status !== 422) return toast(error.message, "error");
    if (!(await confirmChoice(`${error.message}. Create it and move “${note.title}” there?`, "Create and move"))) return;
    return change(note, { notebook, place: "first", createNotebook: true });
  }
  await load();
}

async function remove(note) {
  try {
    await api("DELETE", `/api/notes/${note.id}`);
    toast(`“${note.title}” is in the trash`);
    await load();
  } catch (error) {
    toast(error.message, "error");
  }
}

async function newNotebook() {
  const path = await ask("Notebook (Parent/Child)", "", "Create");
  if (!path) return;
  try {
    await api("POST", "/api/notebooks", { path });
    await load();
  } catch (error) {
    toast(error.message, "error");
  }
}

async function newNote() {
  const title = await ask("Title of the new note", "", "Create");
  if (!title) return;
  try {
    const notebook = state.notebook && state.notebook !== "#trash" ? state.notebook : undefined;
    const note = await api("POST", "/api/notes", { title, notebook });
    location.href = `/notes/${note.id}`;
  } catch (error) {
    toast(error.message, "error");
  }
}

/** Uploads the chosen PDF as a note to write on, then opens it. */
async function importPDF(file) {
  if (!file) return;
  if (file.size > 64 * 1024 * 1024) {
    toast(`${file.name} is larger than 64 MiB; import it with inkwell import`, "error");
    return;
  }
  const title = file.name.replace(/\.pdf$/i, "") || "Document";
  const notebook = state.notebook && state.notebook !== "#trash" ? state.notebook : "";
  try {
    toast(`Importing ${file.name}…`);
    const response = await fetch(`/api/import?title=${encodeURIComponent(title)}&notebook=${encodeURIComponent(notebook)}`, {
      method: "POST", headers: { "Content-Type": "application/pdf" }, body: file, credentials: "same-origin",
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new Error(data?.error?.message || `${response.status} ${response.statusText}`);
    location.href = `/notes/${data.id}`;
  } catch (error) {
    toast(error.message, "error");
  }
}

async function renderTrash() {
  document.getElementById("results").hidden = true;
  const container = document.getElementById("notes");
  container.className = "list";
  const { items } = await api("GET", "/api/trash");
  container.replaceChildren(...(items.length ? items.map((item) => el("article", { class: "note trashed" },
    el("div", { class: "meta" },
      el("span", { class: "title" }, item.name),
      el("span", { class: "where" }, `from ${item.notebook || "the library"}`),
      el("span", { class: "actions" }, el("button", {
        type: "button", onclick: async () => {
          try { await api("POST", `/api/trash/${item.id}/restore`); await load(); } catch (error) { toast(error.message, "error"); }
        },
      }, "Restore"))))) : [el("p", { class: "empty" }, "The trash is empty.")]));
}

let searchSerial = 0;
async function runSearch(words) {
  const serial = ++searchSerial;
  const query = new URLSearchParams();
  if (words) query.set("q", words);
  for (const tag of state.tags) query.append("tag", tag);
  try {
    const { hits } = await api("GET", `/api/search?${query}`);
    if (serial !== searchSerial) return;
    const results = document.getElementById("results");
    document.getElementById("notes").hidden = true;
    results.hidden = false;
    results.replaceChildren(...(hits.length ? hits.map((hit) => el("article", { class: "hit" },
      el("a", { href: `/notes/${hit.note}`, class: "title" }, hit.title),
      el("span", { class: "where" }, hit.notebook, hit.pages.length ? ` · page ${hit.pages.join(", ")}` : ""),
      el("p", { class: "snippet" }, hit.snippet),
      el("span", { class: "tags" }, ...hit.tags.map((tag) => el("span", { class: "tag" }, `#${tag}`))))) :
      [el("p", { class: "empty" }, "Nothing found.")]));
  } catch (error) {
    toast(error.message, "error");
  }
}

/** The notebooks' side bar, folded behind its toggle on a narrow screen (open or not, as `folded` says). */
function foldSidebar(folded) {
  document.body.dataset.sidebar = folded ? "folded" : "open";
  document.getElementById("sidebar-toggle").setAttribute("aria-expanded", String(!folded));
}

let searchTimer = null;
document.getElementById("search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(render, 200);
});
document.getElementById("view-toggle").addEventListener("click", () => {
  state.view = state.view === "grid" ? "list" : "grid";
  localStorage.setItem("inkwell.view", state.view);
  render();
});
document.getElementById("sidebar-toggle").addEventListener("click", () => foldSidebar(document.body.dataset.sidebar === "open"));
document.getElementById("new-note").addEventListener("click", newNote);
document.getElementById("import-pdf").addEventListener("click", () => document.getElementById("pdf-file").click());
document.getElementById("pdf-file").addEventListener("change", (event) => {
  const file = event.target.files[0];
  event.target.value = ""; // choosing the same file again (after an error) is a change too
  importPDF(file);
});
listenToCards(document.getElementById("notes"));
load().catch((error) => toast(error.message, "error"));
// Tags recognised while this view is open (in another tab) show up when it comes back.
document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
