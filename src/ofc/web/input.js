// Input at the table: click a card then a row, drag and drop, and the keyboard (every card
// and row focusable; Enter/Space selects or places, t/m/b a row, d discard, u/Backspace
// undo, c confirm, h hint, arrows move between cards). Nothing is taken while disconnected.
import { toast } from "./util.js";
import { tr } from "./i18n.js";
import { canAct, place, ui, undo } from "./state.js";

let actions = { redraw() {}, confirm() {}, hint() {} };

export function setActions(given) {
  actions = given;
}

function put(card, target) {
  if (!ui.connected) { toast(tr("Disconnected: wait for the table to come back.")); return; }
  const refusal = place(card, target);
  if (refusal) toast(refusal);
  actions.redraw();
}

function select(card) {
  if (!canAct()) return;
  ui.selected = ui.selected === card ? null : card;
  actions.redraw();
}

export function bindCard(node, card) {
  node.draggable = true;
  node.classList.add("movable");
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  node.setAttribute("aria-pressed", ui.selected === card ? "true" : "false");
  if (ui.selected === card) node.classList.add("selected");
  node.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", card));
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    select(card);
  });
}

// A place cards go to. Rows hold focusable cards, so they are focusable groups (not buttons).
export function bindTarget(node, target, label, focusable = true) {
  if (focusable) node.tabIndex = 0;
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", label);
  node.dataset.target = target;
  node.addEventListener("dragover", (event) => { event.preventDefault(); node.classList.add("over"); });
  node.addEventListener("dragleave", () => node.classList.remove("over"));
  node.addEventListener("drop", (event) => {
    event.preventDefault();
    node.classList.remove("over");
    put(event.dataTransfer.getData("text/plain"), target);
  });
  node.addEventListener("click", () => { if (ui.selected) put(ui.selected, target); });
}

// What had the focus before a redraw (the nodes are rebuilt): a card or a target.
export function rememberFocus() {
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  if (node.dataset && node.dataset.card) return { card: node.dataset.card };
  if (node.dataset && node.dataset.target) return { target: node.dataset.target };
  return null;
}

function handCards() {
  return Array.from(document.querySelectorAll("#hand .card.movable"));
}

export function restoreFocus(focus) {
  if (!focus) return;
  let node = null;
  if (focus.card) node = document.querySelector(`#hand .card[data-card="${focus.card}"]`);
  if (focus.card && !node) node = handCards()[0] || null;
  if (focus.target) node = document.querySelector(`[data-target="${focus.target}"]`);
  if (!node && focus.card) node = document.getElementById("confirm");
  if (node && !node.disabled) node.focus();
}

const ROW_KEYS = { t: "top", m: "middle", b: "bottom", d: "discard" };

function focusedCard() {
  const node = document.activeElement;
  return node && node.dataset && node.dataset.card && node.classList.contains("movable") ? node.dataset.card : null;
}

function moveFocus(step) {
  const cards = handCards();
  if (!cards.length) return;
  const index = cards.indexOf(document.activeElement);
  const next = index < 0 ? 0 : (index + step + cards.length) % cards.length;
  cards[next].focus();
}

export function onKey(event) {
  if (document.getElementById("table").hidden) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = (event.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const node = document.activeElement;
  if ((key === "Enter" || key === " ") && node && node.dataset) {
    if (node.dataset.card && node.classList.contains("movable")) { event.preventDefault(); select(node.dataset.card); return; }
    if (node.dataset.target) {
      event.preventDefault();
      const card = ui.selected;
      if (card) put(card, node.dataset.target);
      return;
    }
  }
  if (!canAct()) return;
  if (ROW_KEYS[key]) {
    const card = ui.selected || focusedCard() || (handCards()[0] && handCards()[0].dataset.card);
    if (!card) return;
    event.preventDefault();
    put(card, ROW_KEYS[key]);
    const next = handCards()[0];
    if (next) next.focus();
    else document.getElementById("confirm").focus();
  } else if (key === "u" || key === "Backspace") {
    event.preventDefault();
    if (undo()) actions.redraw();
  } else if (key === "c") {
    event.preventDefault();
    actions.confirm();
  } else if (key === "h") {
    event.preventDefault();
    actions.hint();
  } else if (key === "ArrowRight" || key === "ArrowLeft") {
    event.preventDefault();
    moveFocus(key === "ArrowRight" ? 1 : -1);
  }
}
