// The keep page (docs/keep.md): constants, shared state, small helpers, cards of a draft.
import { formatSignedAmount, localize, tr, trc } from "./i18n.js";
import { CardTextError, readTypedCards } from "./keep-cards.js";


export const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
export const RANKS = "AKQJT98765432";
export const ROWS = ["top", "middle", "bottom"];
export const SIZES = { top: 3, middle: 5, bottom: 5 };
export const LIST = "ofc-keep-books";
export const $ = (id) => document.getElementById(id);

/** What the page's entry module (keep.js) plugs in, so lower modules can ask for a redraw or a new book without importing it. */
export const hooks = { render: () => {}, renderSync: () => {}, start: (_made) => {} };

export const ui = { code: null, readOnly: false, store: null, active: null, sending: false, poll: null, retry: null, shown: null };


// ------------------------------------------------------------------ helpers

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function cardNode(card, cls = "k-card") {
  const node = el("div", `${cls} s-${card[1]}`);
  node.append(el("b", "", card[0] === "T" ? "10" : card[0]), el("i", "", SUITS[card[1]]));
  node.dataset.card = card;
  return node;
}

export function signed(value) {
  return formatSignedAmount(value);
}

// A row's name as the keep page labels it (and "discards").
export function rowLabel(row) {
  return { top: trc("row", "top"), middle: trc("row", "middle"), bottom: trc("row", "bottom"), discards: tr("discard") }[row] || row;
}

// A hand name the server sent: its phrase in the player's language, else the English text.
export function handWords(line, index) {
  const phrase = line.hand_phrases && line.hand_phrases[index];
  return phrase ? localize(phrase) : line.hands[index];
}

export function signClass(value) {
  return value > 0 ? "plus" : value < 0 ? "minus" : "";
}

export async function api(method, path, body) {
  const options = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const words = data.error ? localize(data.error) : "";
    const error = new Error(words || tr("the server answered {status}", { status: response.status }));
    error.status = response.status;
    error.field = (data.error && data.error.field) || "";
    throw error;
  }
  return data;
}

export function books() {
  return JSON.parse(localStorage.getItem(LIST) || "[]");
}

export function remember(code, names) {
  const list = books().filter((item) => item.code !== code);
  list.unshift({ code, names, when: new Date().toISOString().slice(0, 16).replace("T", " ") });
  localStorage.setItem(LIST, JSON.stringify(list.slice(0, 30)));
}

export function save() {
  localStorage.setItem(`ofc-keep-${ui.code}`, JSON.stringify(ui.store));
}

// ------------------------------------------------------------------ cards in a draft

export function emptyEntry() {
  return { top: [], middle: [], bottom: [], discards: [], dead: false };
}

export function cardsOf(entry) {
  return [...entry.top, ...entry.middle, ...entry.bottom, ...entry.discards];
}

export function usedCards(except) {
  const used = new Set();
  for (const [name, entry] of Object.entries(ui.store.draft.players)) {
    if (name !== except) cardsOf(entry).forEach((card) => used.add(card));
  }
  return used;
}

export function discardSlots(name) {
  const deal = ui.store.draft.fantasy[name] || 0;
  return deal > 13 ? deal - 13 : 0;
}

export function complete(entry) {
  return entry.dead || ROWS.every((row) => entry[row].length === SIZES[row]);
}

export function entryJson(entry) {
  if (entry.dead) return "dead";
  const out = {};
  ROWS.forEach((row) => { out[row] = entry[row].join(" "); });
  if (entry.discards.length) out.discards = entry.discards.join(" ");
  return out;
}

export function entryFromJson(value) {
  const entry = emptyEntry();
  if (value === "dead") entry.dead = true;
  else for (const row of [...ROWS, "discards"]) entry[row] = value[row] ? value[row].split(" ").filter(Boolean) : [];
  return entry;
}

// Why a row's text cannot be read, in the page's language (the kinds of keep-cards.js).
export function cardTextRefusal(error, name, row) {
  const params = { name, row, ...error.params };
  switch (error.kind) {
    case "two ranks": return tr("{name}, {row}: cannot read '{word}': '{pair}' is two ranks; a card is a rank and a suit", params);
    case "two suits": return tr("{name}, {row}: cannot read '{word}': '{pair}' is two suits; a card is a rank and a suit", params);
    case "mixed ace": return tr("{name}, {row}: cannot read '{word}': '{pair}' mixes the Cyrillic Т (туз, ace) with a Latin suit; write A or T (ten) in Latin letters, or the suit in Cyrillic (т б ч п)", params);
    case "rank alone": return tr("{name}, {row}: cannot read '{word}': the rank '{last}' at its end has no suit", params);
    case "suit alone": return tr("{name}, {row}: cannot read '{word}': the suit '{last}' at its end has no rank", params);
    case "no pair": return tr("{name}, {row}: cannot read '{word}': the '{last}' at its end has no pair", params);
    default: return tr("{name}, {row}: cannot read '{word}': '{char}' is neither a rank (2-9, 10, T J Q K A, В Д К Т) nor a suit (c d h s, ♣ ♦ ♥ ♠, т б ч п)", params);
  }
}

export function parseTyped(text, name) {
  if (text.trim().toLowerCase() === "dead") return { ...emptyEntry(), dead: true };
  const parts = text.split("/");
  if (parts.length < 3 || parts.length > 4) throw new Error(tr("{name}: write 'top / middle / bottom' (a 4th part for discards)", { name }));
  const entry = emptyEntry();
  const seen = new Set(usedCards(name));
  parts.forEach((part, index) => {
    const row = [...ROWS, "discards"][index];
    let cards;
    try {
      cards = readTypedCards(part);
    } catch (error) {
      if (error instanceof CardTextError) throw new Error(cardTextRefusal(error, name, rowLabel(row)));
      throw error;
    }
    for (const card of cards) {
      if (seen.has(card)) throw new Error(tr("{name}, {row}: card {card} is already used in this hand", { name, row: rowLabel(row), card }));
      seen.add(card);
      entry[row].push(card);
    }
    if (row !== "discards" && entry[row].length !== SIZES[row]) {
      throw new Error(tr("{name}, {row} row: needs {size} cards, got {count}", { name, row: rowLabel(row), size: SIZES[row], count: entry[row].length }));
    }
  });
  return entry;
}

