// The keep page: one person keeps a live match's score from a phone (docs/keep.md).
// Plain JavaScript modules, no build step. The server scores everything; the page only enters
// boards. Unsent entries live in localStorage and are sent, in order, when the server answers.

import { $, api, books, el, emptyEntry, hooks, parseTyped, remember, save, ui } from "./keep-base.js";
import { loadLanguage, tr } from "./i18n.js";
import { startPicker } from "./language-picker.js";
import { activeEntry, advance, flush, refresh, saveDraft } from "./keep-entry.js";
import { render, renderSync } from "./keep-view.js";

// ------------------------------------------------------------------ pages

export function start(made) {
  ui.store = { key: made.key, state: made, queue: [], draft: null };
  ui.code = made.code;
  save();
  remember(made.code, made.book.players);
  location.hash = `#book=${made.code}`;
}

function showHome() {
  $("k-home").hidden = false;
  $("k-book").hidden = true;
  $("k-title").textContent = "";
  $("k-sync").textContent = "";
  const list = $("k-books");
  list.replaceChildren();
  const saved = books();
  if (!saved.length) list.append(el("p", "k-muted", tr("None yet.")));
  saved.forEach((item) => {
    const link = el("a", "", `${item.names.join(", ")} \u00b7 ${item.when}`);
    link.href = `/keep#book=${item.code}`;
    list.append(link);
  });
  buttonChoices();
}

function buttonChoices() {
  const form = $("k-new");
  const names = [0, 1, 2, 3].map((i) => form[`p${i}`].value.trim()).filter(Boolean);
  const select = form.button;
  const chosen = select.value;
  select.replaceChildren(...names.map((name) => { const o = el("option", "", name); o.value = name; return o; }));
  if (names.includes(chosen)) select.value = chosen;
}

async function createBook(event) {
  event.preventDefault();
  const form = $("k-new");
  const settings = {};
  if (form.point_value.value.trim()) settings.point_value = form.point_value.value.trim();
  if (form.loss_limit.value.trim()) settings.loss_limit = form.loss_limit.value.trim();
  for (const item of form.more.value.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [name, ...rest] = item.split("=");
    settings[name.trim()] = rest.join("=").trim();
  }
  const players = [0, 1, 2, 3].map((i) => form[`p${i}`].value.trim()).filter(Boolean);
  try {
    start(await api("POST", "/api/keep", { players, preset: form.preset.value, settings, button: form.button.value || null }));
  } catch (error) {
    $("k-new-error").textContent = error.status ? error.message : tr("The server cannot be reached: try again.");
  }
}

function showBook(code, readOnly) {
  $("k-home").hidden = true;
  $("k-book").hidden = false;
  ui.code = code;
  const stored = JSON.parse(localStorage.getItem(`ofc-keep-${code}`) || "null");
  ui.readOnly = readOnly || !stored;
  ui.store = ui.readOnly ? null : stored;
  ui.shown = null;
  clearInterval(ui.poll);
  if (ui.store) { render(); flush(); }
  refresh();
  if (ui.readOnly) ui.poll = setInterval(refresh, 4000);
}

function route() {
  const match = /^#(book|view)=([\w-]+)/.exec(location.hash);
  if (match) showBook(match[2], match[1] === "view");
  else { clearInterval(ui.poll); showHome(); }
}

function wire() {
  $("k-new").addEventListener("submit", createBook);
  $("k-new").addEventListener("input", buttonChoices);
  $("k-use").addEventListener("click", () => {
    const draft = ui.store.draft;
    try {
      draft.players[ui.active] = parseTyped($("k-text").value, ui.active);
      draft.error = null;
      $("k-text").value = "";
      advance();
    } catch (error) { draft.error = { message: error.message, field: ui.active }; }
    save();
    render();
  });
  $("k-text").addEventListener("keydown", (event) => { if (event.key === "Enter") $("k-use").click(); });
  $("k-dead").addEventListener("click", () => {
    const entry = activeEntry();
    ui.store.draft.players[ui.active] = { ...emptyEntry(), dead: !entry.dead };
    if (!entry.dead) advance();
    save();
    render();
  });
  $("k-clear").addEventListener("click", () => { ui.store.draft.players[ui.active] = emptyEntry(); save(); render(); });
  $("k-save").addEventListener("click", saveDraft);
  $("k-cancel").addEventListener("click", () => {
    ui.store.draft = ui.store.parked || null;
    ui.store.parked = null;
    ui.store.blocked = false;
    save();
    render();
    flush();
  });
  $("k-copy").addEventListener("click", async () => {
    const link = $("k-link");
    try { await navigator.clipboard.writeText(link.value); } catch { link.select(); document.execCommand("copy"); }
    $("k-copy").textContent = tr("Copied");
  });
  window.addEventListener("online", () => { if (ui.store && !ui.readOnly) flush(); });
  window.addEventListener("hashchange", route);
}

// The page in the player's language before anything is drawn; the picker redraws it.
async function main() {
  Object.assign(hooks, { render, renderSync, start });
  wire();
  await loadLanguage();
  startPicker($("k-language"), () => { if ($("k-book").hidden) showHome(); else render(); });
  route();
}

main();
