// A tiny helper to build elements; text always goes in as text (never as HTML).
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** Replace the children of ``node``. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

const polite = () => document.getElementById("live-polite");
const assertive = () => document.getElementById("live-assertive");

/** Say ``text`` in the polite live region (every action, as a full sentence). */
export function announce(text) {
  if (!text) return;
  const region = polite();
  region.append(h("p", { text }));
  while (region.childElementCount > 8) region.firstElementChild.remove();
}

/** Say ``text`` in the assertive live region: only "your turn" and timer warnings. */
export function alertNow(text) {
  const region = assertive();
  region.textContent = "";
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}
