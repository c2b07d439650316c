// The library view: notebooks (a side bar, folded on a narrow screen), notes (grid or list), tag
// filters, search, and the note actions.
import { api, ask, confirmChoice, el, toast } from "/assets/api.js";

/** The orders the notes can be shown in; pinned notes come first in each. */
const SORTS = {
  manual: { label: "My order", compare: null },  // the notebook's own order (drag a card onto another)
  modified: { label: "Last changed", compare: (a, b) => b.modified.localeCompare(a.modified) },
  created: { label: "Date created", compare: (a, b) => b.created.localeCompare(a.created) },
  title: { label: "Title", compare: (a, b) => a.title.localeCompare(b.title, undefined, { sensitivity: "base", numeric: true }) },
};

const state = {
  listing: { notebooks: [], notes: [] },
  notebook: null,          // null: every notebook; "#trash": the trash
  tags: new Set(),         // tag filter (AND)
  view: localStorage.getItem("inkwell.view") === "list" ? "list" : "grid",
  sort: SORTS[localStorage.getItem("inkwell.sort")] ? localStorage.getItem("inkwell.sort") : "manual",
};
window.inkwell = state;

async function load() {
  let response;
  try {
    response = await fetch("/api/library", { credentials: "same-origin" });
  } catch {
    // Out of reach and nothing kept (the service worker keeps the last listing).
    return showOffline(true, "The Inkwell server cannot be reached. The library shows here once it is back.");
  }
  if (!response.ok) throw new Error(`the library could not be listed: ${response.status} ${response.statusText}`);
  state.listing = await response.json();
  // The service worker marks a listing it answered from its copy.
  showOffline(response.headers.has("Inkwell-Kept"));
  render();
}

let reconnectTimer = null;
/** Says whether what is shown is the library as last seen, and looks again every few seconds until the server answers. */
function showOffline(offline, message = "Offline: the library as last seen. Notes opened before open, and what you write in them is kept until the server is back.") {
  const banner = document.getElementById("offline");
  banner.hidden = !offline;
  banner.textContent = offline ? message : "";
  clearTimeout(reconnectTimer);
  if (offline) reconnectTimer = setTimeout(() => load().catch(() => {}), 5000);
}

function render() {
  cardMenu.close();
  renderNotebooks();
  renderTagFilter();
  if (state.notebook === "#trash") return renderTrash();
  const search = document.getElementById("search").value.trim();
  if (search || state.tags.size) return runSearch(search);
  document.getElementById("results").hidden = true;
  const notes = state.listing.notes.filter((note) =>
    state.notebook === null || note.notebook === state.notebook || note.notebook.startsWith(`${state.notebook}/`));
  renderNotes(sorted(notes));
}

/** The notes in the chosen order, pinned first (the listing's own order is the notebooks' order). */
function sorted(notes) {
  const compare = SORTS[state.sort].compare;
  if (!compare) return notes;
  return [...notes].sort((a, b) => (b.pinned - a.pinned) || compare(a, b));
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
  document.getElementById("sort").value = state.sort;
  if (!notes.length) {
    container.replaceChildren(el("div", { class: "empty" },
      el("p", { class: "lead" }, state.notebook === null ? "No notes yet." : "No notes in this notebook yet."),
      el("p", {}, "Write one with a pen, or bring recordings from a tablet with ", el("code", {}, "inkwell import"), "."),
      el("button", { type: "button", class: "primary", onclick: newNote }, "New note")));
    return;
  }
  container.innerHTML = notes.map(card).join("");
}

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** What recognition has still to do for a note, in words; empty once every page is read. */
function statusText(status) {
  const waiting = (status.pending ?? 0) + (status.processing ?? 0);
  return [waiting ? `Reading the handwriting of ${plural(waiting, "page")}…` : "",
    status.failed ? `${plural(status.failed, "page")} could not be read` : ""].filter(Boolean).join(" · ");
}

/** A date as people say it: the time today, “Yesterday”, the day this year, the day and year before. */
function when(iso) {
  const date = new Date(iso), now = new Date();
  const day = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(now) - day(date)) / 86_400_000);
  if (days === 0) return date.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
  if (days === 1) return "Yesterday";
  return date.toLocaleDateString(undefined, date.getFullYear() === now.getFullYear()
    ? { day: "numeric", month: "short" } : { day: "numeric", month: "short", year: "numeric" });
}

/** How many pages a note has, as a card and a search hit say it. */
const pageCount = (note) => (note.pages ? plural(note.pages, "page") : "empty");

/** The date a note was last changed and how many pages it has, as its card shows them. */
function facts(note) {
  return `<time datetime="${escapeHTML(note.modified)}" title="Changed ${escapeHTML(new Date(note.modified).toLocaleString())}">${escapeHTML(when(note.modified))}</time> · ${pageCount(note)}`;
}

const escapeHTML = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** A note's card as HTML (one string for all cards is far quicker than a thousand element trees). */
function card(note) {
  const href = `/notes/${escapeHTML(note.id)}`;
  const thumb = note.thumbnail
    ? `<img src="${escapeHTML(note.thumbnail)}" loading="lazy" alt="" width="256" height="341">`
    : `<span class="blank"></span>`;
  const tags = note.tags.map((tag) => `<span class="tag">#${escapeHTML(tag)}</span>`).join("");
  const status = statusText(note.status);
  return `<article class="note" draggable="${state.sort === "manual"}" data-id="${escapeHTML(note.id)}">
<a href="${href}" class="thumb" tabindex="-1" aria-hidden="true">${thumb}</a>
<div class="meta"><div class="card-head"><a href="${href}" class="title">${note.pinned ? `<span class="pin" aria-hidden="true">★ </span><span class="visually-hidden">Pinned: </span>` : ""}${escapeHTML(note.title)}</a>
<button type="button" class="more icon" data-action="menu" aria-haspopup="menu" aria-expanded="false" title="Actions" aria-label="Actions for “${escapeHTML(note.title)}”">${MORE_ICON}</button></div>
<span class="where">${escapeHTML(note.notebook)}</span><span class="facts">${facts(note)}</span>${status ? `<span class="status">${escapeHTML(status)}</span>` : ""}
<span class="tags">${tags}</span></div>
</article>`;
}

const MORE_ICON = `<svg viewBox="0 0 24 24" aria-hidden="true"><circle class="fill" cx="5" cy="12" r="1.6"/><circle class="fill" cx="12" cy="12" r="1.6"/><circle class="fill" cx="19" cy="12" r="1.6"/></svg>`;

/** The one menu of a card's actions, opened under its “…” button; arrows move, Esc closes. */
const cardMenu = {
  node: null,
  button: null,

  open(button, note) {
    this.close();
    const item = (action, label) => el("button", { type: "button", role: "menuitem", tabindex: "-1", dataset: { action } }, label);
    this.node = el("div", { class: "card-menu", role: "menu", "aria-label": `Actions for “${note.title}”` },
      item("pin", note.pinned ? "Unpin" : "Pin to the top"), item("rename", "Rename…"), item("tags", "Tags…"),
      item("move", "Move to notebook…"), item("delete", "Move to trash"));
    this.node.addEventListener("click", (event) => {
      const action = event.target.closest("[role=menuitem]")?.dataset.action;
      if (!action) return;
      this.close();
      runAction(action, note);
    });
    this.node.addEventListener("keydown", (event) => this.key(event));
    document.body.append(this.node);
    const r = button.getBoundingClientRect(), width = this.node.offsetWidth, height = this.node.offsetHeight;
    // Placed in the page (it scrolls with its card): below the button, or above it near the bottom of the screen.
    this.node.style.left = `${scrollX + Math.max(8, Math.min(r.right - width, innerWidth - width - 8))}px`;
    this.node.style.top = `${scrollY + (r.bottom + height + 8 > innerHeight ? Math.max(8, r.top - height - 4) : r.bottom + 4)}px`;
    this.button = button;
    button.setAttribute("aria-expanded", "true");
    this.items()[0].focus();
  },

  items() { return [...this.node.querySelectorAll("[role=menuitem]")]; },

  key(event) {
    const items = this.items(), at = items.indexOf(document.activeElement);
    const moves = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      items[(moves[event.key] + items.length) % items.length].focus();
    } else if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      this.close(true);
    }
  },

  /** Closes the menu, giving the focus back to its button when `refocus`. */
  close(refocus = false) {
    if (!this.node) return;
    this.node.remove();
    this.node = null;
    this.button.setAttribute("aria-expanded", "false");
    if (refocus) this.button.focus();
  },
};

document.addEventListener("pointerdown", (event) => {
  if (cardMenu.node && !cardMenu.node.contains(event.target) && !cardMenu.button.contains(event.target)) cardMenu.close();
});

function runAction(action, note) {
  ({
    pin: () => change(note, { pinned: !note.pinned }),
    rename: () => rename(note),
    tags: () => retag(note),
    move: () => move(note),
    delete: () => remove(note),
  })[action]();
}

/** The cards' buttons and drag-to-reorder, handled once for the whole list. */
function listenToCards(container) {
  const noteOf = (event) => {
    const id = event.target.closest(".note")?.dataset.id;
    return state.listing.notes.find((note) => note.id === id);
  };
  container.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action=menu]");
    const note = button && noteOf(event);
    if (!note) return;
    if (cardMenu.button === button && cardMenu.node) return cardMenu.close(true);
    cardMenu.open(button, note);
  });
  container.addEventListener("dragstart", (event) => {
    const note = state.sort === "manual" && noteOf(event);
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
    const asked = [words && `“${words}”`, ...[...state.tags].map((tag) => `#${tag}`)].filter(Boolean).join(" and ");
    results.replaceChildren(...(hits.length ? [el("p", { class: "count", role: "status" }, `${plural(hits.length, "note")} for ${asked}`), ...hits.map(hitCard)] :
      [el("div", { class: "empty", role: "status" }, el("p", { class: "lead" }, `Nothing found for ${asked}.`),
        el("p", {}, "Search reads titles, tags and handwriting; fewer words find more."))]));
  } catch (error) {
    toast(error.message, "error");
  }
}

/** One search hit: the page that matched (its thumbnail), the title, where and when, and the words found marked. */
function hitCard(hit) {
  const note = state.listing.notes.find((n) => n.id === hit.note);
  const page = hit.pages[0] ?? 1;
  const href = `/notes/${hit.note}${hit.pages.length ? `#page=${page}` : ""}`;
  // The card's thumbnail address (it changes with the note), for the page that matched.
  const thumbnail = note?.thumbnail ? el("img", { src: `${note.thumbnail}&page=${page}`, alt: "", loading: "lazy", width: "256", height: "341" })
    : el("span", { class: "blank" });
  // The pages that matched of how many, or how many there are: notes titled the same are told apart.
  const of = note ? ` of ${note.pages}` : "";
  const pages = hit.pages.length ? `${hit.pages.length === 1 ? "page" : "pages"} ${hit.pages.join(", ")}${of}`
    : note ? pageCount(note) : "";
  const where = [hit.notebook, pages];
  const meta = el("span", { class: "where" }, where.filter(Boolean).join(" · "));
  if (note) meta.append(" · ", el("time", { datetime: note.modified, title: `Changed ${new Date(note.modified).toLocaleString()}` }, when(note.modified)));
  // A hit on the title or a tag alone has no text of its own to show.
  const snippet = hit.snippet && hit.snippet !== hit.title ? el("p", { class: "snippet" }, ...marked(hit.snippet)) : null;
  return el("article", { class: "hit" },
    el("a", { href, class: "thumb", tabindex: "-1", "aria-hidden": "true" }, thumbnail),
    el("div", { class: "meta" },
      el("a", { href, class: "title" }, hit.title),
      meta, snippet,
      el("span", { class: "tags" }, ...hit.tags.map((tag) => el("span", { class: "tag" }, `#${tag}`)))));
}

/** The snippet's text with the words the search matched (between « and ») as marked nodes. */
function marked(snippet) {
  return snippet.split(/«([^»]*)»/).map((part, i) => (i % 2 ? el("mark", {}, part) : part)).filter((part) => part !== "");
}

/** The notebooks' side bar, folded behind its toggle on a narrow screen (open or not, as `folded` says). */
function foldSidebar(folded) {
  document.body.dataset.sidebar = folded ? "folded" : "open";
  document.getElementById("sidebar-toggle").setAttribute("aria-expanded", String(!folded));
}

addEventListener("resize", () => cardMenu.close());

let searchTimer = null;
document.getElementById("search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(render, 200);
});
document.getElementById("sort").replaceChildren(...Object.entries(SORTS).map(([value, { label }]) => el("option", { value }, label)));
document.getElementById("sort").addEventListener("change", (event) => {
  state.sort = event.target.value;
  localStorage.setItem("inkwell.sort", state.sort);
  render();
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
// The notebooks stay in view below the bar as the notes scroll.
new ResizeObserver(([entry]) => document.documentElement.style.setProperty("--bar-height", `${entry.target.offsetHeight}px`))
  .observe(document.querySelector(".bar"));
load().catch((error) => toast(error.message, "error"));
// Tags recognised while this view is open (in another tab) show up when it comes back.
document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
