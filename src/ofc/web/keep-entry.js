// The keep page: the hand being entered (picker, typed boards, edits) and the queue of
// unsent entries, kept in localStorage and sent in order whenever the server answers.

import { $, ROWS, SIZES, api, cardsOf, complete, discardSlots, emptyEntry, entryFromJson, entryJson, hooks, save, ui } from "./keep-base.js";

// ------------------------------------------------------------------ the draft of the hand being entered

export function pendingAppends() {
  const state = ui.store.state;
  return ui.store.queue.filter((op) => op.op === "put" && op.number > state.hands.length).length;
}

export function ensureDraft() {
  const state = ui.store.state;
  const draft = ui.store.draft;
  const number = state.hands.length + pendingAppends() + 1;
  if (draft && (draft.editing || draft.error || ui.store.blocked || draft.number === number)) return;
  const next = state.next;
  const fresh = pendingAppends() === 0 && next;
  const order = fresh ? next.order : (draft ? draft.order : state.book.players.filter((n) => !state.left.includes(n)));
  const players = {};
  // Boards already entered carry over when the hand's number moves (an undo, say).
  order.forEach((name) => { players[name] = (draft && draft.players[name]) || emptyEntry(); });
  ui.store.draft = { number, editing: false, order, fantasy: fresh ? next.fantasy : {}, players, error: null };
  ui.active = order[0];
  save();
}

export function editHand(number) {
  const hand = ui.store.state.hands[number - 1];
  const players = {};
  hand.order.forEach((name) => { players[name] = entryFromJson(hand.players[name].entry); });
  ui.store.draft = { number, editing: true, order: hand.order, fantasy: hand.fantasy, players, error: null };
  ui.active = hand.order[0];
  save();
  hooks.render();
  $("k-entry").scrollIntoView();
}

export function activeEntry() {
  const draft = ui.store.draft;
  if (!draft.order.includes(ui.active)) ui.active = draft.order[0];
  return draft.players[ui.active];
}

export function advance() {
  const draft = ui.store.draft;
  const entry = activeEntry();
  if (!complete(entry) || entry.discards.length < discardSlots(ui.active)) return;
  const start = draft.order.indexOf(ui.active);
  for (let step = 1; step < draft.order.length; step += 1) {
    const name = draft.order[(start + step) % draft.order.length];
    if (!complete(draft.players[name])) { ui.active = name; return; }
  }
}

export function pick(card) {
  const entry = activeEntry();
  if (entry.dead) entry.dead = false;
  const rows = [...ROWS];
  if (discardSlots(ui.active)) rows.push("discards");
  const row = rows.find((name) => entry[name].length < (name === "discards" ? discardSlots(ui.active) : SIZES[name]));
  if (!row) return;
  entry[row].push(card);
  ui.store.draft.error = null;
  advance();
  save();
  hooks.render();
}

export function unpick(row, card) {
  const entry = activeEntry();
  entry[row] = entry[row].filter((item) => item !== card);
  save();
  hooks.render();
}

export function saveDraft() {
  const draft = ui.store.draft;
  const hand = {};
  draft.order.forEach((name) => { hand[name] = entryJson(draft.players[name]); });
  const op = { op: "put", number: draft.number, hand, editing: draft.editing };
  if (ui.store.blocked) ui.store.queue.unshift(op);
  else ui.store.queue.push(op);
  ui.store.blocked = false;
  ui.store.draft = ui.store.parked || null;
  ui.store.parked = null;
  ui.shown = draft.number;
  ensureDraft();
  save();
  hooks.render();
  flush();
}

// ------------------------------------------------------------------ sending

export async function flush() {
  if (ui.sending || ui.store.blocked || !ui.store.queue.length) return;
  ui.sending = true;
  hooks.renderSync();
  try {
    while (ui.store.queue.length && !ui.store.blocked) {
      const op = ui.store.queue[0];
      try {
        if (op.op === "put") {
          ui.store.state = await api("PUT", `/api/keep/${ui.code}/hands/${op.number}`, { key: ui.store.key, hand: op.hand });
        } else {
          const query = `key=${encodeURIComponent(ui.store.key)}&count=${op.count}`;
          ui.store.state = await api("DELETE", `/api/keep/${ui.code}/hands/${op.number}?${query}`);
        }
        ui.store.queue.shift();
        save();
      } catch (error) {
        if (!error.status) { scheduleRetry(); break; }
        ui.store.queue.shift();
        refused(op, error);
        save();
      }
    }
  } finally {
    ui.sending = false;
    hooks.render();
  }
}

export function refused(op, error) {
  if (op.op !== "put") { ui.store.notice = error.message; return; }
  // Nothing entered is lost: the refused hand goes back into the entry panel, with the reason.
  const players = {};
  Object.entries(op.hand).forEach(([name, value]) => { players[name] = entryFromJson(value); });
  const order = Object.keys(op.hand);
  const old = ui.store.draft && !ui.store.draft.editing ? ui.store.draft : null;
  const fantasy = op.editing ? ui.store.state.hands[op.number - 1]?.fantasy || {} : (ui.store.state.next || {}).fantasy || {};
  ui.store.draft = { number: op.number, editing: op.editing, order, fantasy, players, error: { message: error.message, field: error.field } };
  ui.store.blocked = ui.store.queue.length > 0 || Boolean(old && old.order.some((name) => cardsOf(old.players[name]).length));
  ui.store.parked = old;
  ui.active = (error.field || "").split(".")[0] || order[0];
}

export function scheduleRetry() {
  clearTimeout(ui.retry);
  ui.retry = setTimeout(flush, 3000);
}

export async function refresh() {
  try {
    const state = await api("GET", `/api/keep/${ui.code}`);
    if (ui.readOnly) ui.store = { state, queue: [], draft: null };
    else if (!ui.store.queue.length) { ui.store.state = state; save(); }
    hooks.render();
  } catch (error) {
    if (error.status === 404) { $("k-title").textContent = error.message; }
  }
}

