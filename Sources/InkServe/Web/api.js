// What both pages share: JSON calls to the server, small DOM helpers and an in-page prompt.

/** Calls the JSON API; throws an Error with the server's message (and the answer's `status`) when
 * the answer is not 2xx, or saying the server is out of reach (`status` 0). */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    // The browser's own words ("Failed to fetch") say nothing a person can act on.
    throw Object.assign(new Error("The Inkwell server cannot be reached: nothing was changed. Try again once it is back."), { status: 0 });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: { message: text } }; }
  if (!response.ok) {
    throw Object.assign(new Error(data?.error?.message || `${response.status} ${response.statusText}`), { status: response.status });
  }
  return data;
}

/** Creates an element with attributes (`on…` are listeners) and children (strings become text). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Asks for a line of text in a dialog; resolves to the text, or null when cancelled. */
export function ask(label, value = "", confirmText = "OK") {
  const input = el("input", { type: "text", value, name: "answer", autocomplete: "off" });
  const answer = choose("ask", el("label", {}, label, input), confirmText, (confirmed) => (confirmed ? input.value : null));
  input.select();
  return answer;
}

/** Asks a yes-or-no question in a dialog; resolves to true when `confirmText` is chosen. */
export function confirmChoice(message, confirmText) {
  return choose("ask confirm", el("p", {}, message), confirmText, (confirmed) => confirmed);
}

/** Shows a modal dialog of `content` with Cancel and `confirmText`; resolves to `answer(confirmed)`
 * once it closes (Esc cancels). */
function choose(className, content, confirmText, answer) {
  return new Promise((resolve) => {
    const dialog = el("dialog", { class: className },
      el("form", { method: "dialog" },
        content,
        el("menu", {},
          // Not a submit button: Enter in a field submits with the form's first one, which must be OK.
          el("button", { type: "button", onclick: () => dialog.close("cancel") }, "Cancel"),
          el("button", { value: "ok", type: "submit", class: "primary" }, confirmText))));
    document.body.append(dialog);
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(answer(dialog.returnValue === "ok"));
    });
    dialog.showModal();
  });
}

/** Shows a message for a few seconds at the bottom of the screen. */
export function toast(message, kind = "info") {
  const node = el("div", { class: `toast ${kind}`, role: "status" }, message);
  document.body.append(node);
  setTimeout(() => node.remove(), 5000);
}
