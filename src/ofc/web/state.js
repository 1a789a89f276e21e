// The client's state: the last state message, the unconfirmed placements (kept in the
// browser's local storage, by table and seat, so that a reconnect, a reload or the tab closed
// and the link opened again keeps them; a new decision replaces them) and the rules of placing.
import { RANK_ORDER, SIZES, rowWord } from "./util.js";
import { tr, trc, trn } from "./i18n.js";

export const ui = {
  net: null,          // the TableSocket of the open table
  tableId: null,
  token: null,
  state: null,
  received: 0,
  connected: false,
  pending: {},        // card -> "top" | "middle" | "bottom" | "discard"
  order: [],          // cards in the order they were placed (for undo)
  selected: null,
  decisionKey: "",
  advice: "",         // words shown under the buttons: "" or a function giving them in the current language
  hintBase: null,     // the placements when a hint was asked for
  hintKey: "",        // the decision it was asked for (an answer for another one is dropped)
  hintId: 0,          // the id of that hint or solve message
  offer: null,        // a hint that arrived after the board changed: offered, not applied
  thinkingSince: null, // performance.now() when the hint (or solution) being worked out was asked for
  thinkingSolver: false, // whether that is the exact solver's arrangement
  choices: [],        // the last hint's best choices: [{action, value}], best first (hints.js)
  choicesUnsure: false, // whether that hint had too few play-outs to show numbers
  choiceBase: null,   // the placements when that hint was asked for
  notice: "",         // the last automatic placement, announced ("" or a function giving the words)
  shownResult: null,  // the showdown shown: {number, hand_seats, result, since}
  dismissed: -1,      // the hand number of the showdown the player closed
  acked: false,       // an ack came since the last state (so a new board is the player's own act)
};

// A bot's kind: its spec up to the options ("mc:seconds=1" is an mc bot).
function botKind(seat) {
  return String(seat.bot).split(":")[0].trim();
}

// A bot kind in the player's language (a kind the page does not know keeps its own name).
function kindWord(kind) {
  switch (kind) {
    case "random": return trc("bot kind", "random");
    case "heuristic": return trc("bot kind", "heuristic");
    case "mc": return trc("bot kind", "mc");
    case "pro": return trc("bot kind", "pro");
    default: return kind;
  }
}

// A bot seat's name in the player's language: its kind, numbered in seat order when the table
// has two or more bots of that kind ("heuristic bot 1", "heuristic bot 2").
export function botName(seats, tableSeat) {
  const raw = botKind(seats[tableSeat]);
  const kind = kindWord(raw);
  const same = seats.map((seat, index) => (seat.bot && botKind(seat) === raw ? index : -1)).filter((index) => index >= 0);
  if (same.length < 2) return tr("{kind} bot", { kind });
  return tr("{kind} bot {number}", { kind, number: same.indexOf(tableSeat) + 1 });
}

export function seatName(tableSeat) {
  const seats = ui.state && ui.state.table.seats;
  const seat = seats && seats[tableSeat];
  if (!seat) return tr("seat {number}", { number: tableSeat + 1 });
  return seat.bot ? botName(seats, tableSeat) : seat.name;
}

export function myTurn() {
  return Boolean(ui.state) && ui.state.discard_due !== null && ui.state.discard_due !== undefined;
}

export function canAct() {
  return myTurn() && ui.connected;
}

// Where the seat's unconfirmed placements are kept: one entry per table and seat, holding the
// decision (hand, street, cards) they belong to, so the next decision's placements replace it.
function storeKey() {
  const seat = ui.state && ui.state.you !== null && ui.state.you !== undefined ? ui.state.you : "watch";
  return `ofc-pending-${ui.tableId}-${seat}`;
}

export function savePending() {
  try {
    localStorage.setItem(storeKey(), JSON.stringify({ key: ui.decisionKey, pending: ui.pending, order: ui.order }));
  } catch (error) { /* storage full or off: placements then live only in memory */ }
}

export function clearPending(save = true) {
  ui.pending = {};
  ui.order = [];
  ui.selected = null;
  ui.advice = "";
  ui.offer = null;
  ui.hintBase = null;
  ui.choices = [];
  ui.choiceBase = null;
  ui.choicesUnsure = false;
  if (save) savePending();
}

// Placements stored for a hand already over are dropped: once the hand moves on, they go.
function forgetPastHands() {
  try {
    const saved = JSON.parse(localStorage.getItem(storeKey()) || "null");
    const hand = saved && saved.key ? Number(saved.key.split("/")[0]) : null;
    if (hand !== null && hand < ui.state.hand_number) localStorage.removeItem(storeKey());
  } catch (error) { /* unreadable or off: nothing to forget */ }
}

// A new decision (another hand, street or cards) starts with nothing placed; the same
// decision after a reconnect, a server restart or a reload keeps what was placed.
export function keepDecision() {
  const hand = ui.state.hand;
  const key = hand && myTurn() ? `${ui.state.hand_number}/${hand.street}/${hand.cards.slice().sort().join(",")}` : "";
  if (!key) forgetPastHands();
  if (key === ui.decisionKey) return;
  ui.decisionKey = key;
  clearPending(false);
  if (!key) return; // a moment with nothing to decide (a restart, a resync) keeps what is stored
  try {
    const saved = JSON.parse(localStorage.getItem(storeKey()) || "null");
    if (saved && saved.key === key) {
      ui.pending = saved.pending || {};
      ui.order = saved.order || Object.keys(ui.pending);
    }
  } catch (error) { /* unreadable: start afresh */ }
  savePending();
}

export function roomLeft(row) {
  const hand = ui.state.hand;
  const mine = hand.seats[hand.seat];
  const used = Object.values(ui.pending).filter((r) => r === row).length;
  return SIZES[row] - mine[row].length - used;
}

// Put `card` at `target` (a row, "discard", or "hand" to take it back). Returns a refusal
// in words, or "" when done.
export function place(card, target) {
  if (!canAct() || !ui.state.hand.cards.includes(card)) return "";
  if (ui.pending[card] === target) return "";
  if (target === "discard") {
    const discards = Object.entries(ui.pending).filter(([c, r]) => r === "discard" && c !== card).length;
    if (discards >= ui.state.discard_due) {
      return ui.state.discard_due ? trn("Discard {n} card only.", "Discard {n} cards only.", ui.state.discard_due) : tr("Nothing is discarded on this street.");
    }
  } else if (target !== "hand" && roomLeft(target) <= 0) {
    return tr("The {row} row is full.", { row: rowWord(target) });
  }
  ui.order = ui.order.filter((c) => c !== card);
  if (target === "hand") delete ui.pending[card];
  else { ui.pending[card] = target; ui.order.push(card); }
  ui.selected = null;
  savePending();
  return "";
}

// Take back the card placed last; false when nothing is placed.
export function undo() {
  const card = ui.order.pop();
  if (!card) return false;
  delete ui.pending[card];
  savePending();
  return true;
}

export function usePlan(action) {
  ui.pending = {};
  ui.order = [];
  for (const [card, row] of action.place) { ui.pending[card] = row; ui.order.push(card); }
  for (const card of action.discard) { ui.pending[card] = "discard"; ui.order.push(card); }
  ui.selected = null;
  ui.offer = null;
  savePending();
}

export function samePending(a, b) {
  return JSON.stringify(Object.entries(a || {}).sort()) === JSON.stringify(Object.entries(b || {}).sort());
}

// The act to send, or null while the placements are incomplete.
export function decision() {
  const cards = ui.state.hand.cards;
  const placed = [];
  const discard = [];
  const loose = [];
  for (const card of cards) {
    const where = ui.pending[card];
    if (where === "discard") discard.push(card);
    else if (where) placed.push([card, where]);
    else loose.push(card);
  }
  if (loose.length && loose.length + discard.length === ui.state.discard_due) discard.push(...loose);
  else if (loose.length) return null;
  return discard.length === ui.state.discard_due ? { place: placed, discard } : null;
}

// A row's cards in display order: by strength (most of a rank first, then high ranks), the
// way a poker hand is read (K K 9 9 4, not 9 K 4 K 9).
export function byStrength(cards) {
  const count = {};
  for (const card of cards) count[card[0]] = (count[card[0]] || 0) + 1;
  return cards.slice().sort((a, b) => (count[b[0]] - count[a[0]])
    || (RANK_ORDER.indexOf(b[0]) - RANK_ORDER.indexOf(a[0])) || a[1].localeCompare(b[1]));
}

export function sortRows() {
  return localStorage.getItem("ofc-row-order") !== "placed";
}
