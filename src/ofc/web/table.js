// One table: its socket's messages, playing (confirm, hint, solver), leaving, rematch.
import { $, plainError, toast } from "./util.js";
import { TableSocket, api } from "./net.js";
import { formatNumber, formatSigned, tr } from "./i18n.js";
import { joinTable, showBalance } from "./lobby.js";
import { render } from "./render.js";
import { keepChoices } from "./hints.js";
import { startThinking, stopThinking } from "./warming.js";
import {
  canAct, clearPending, decision, keepDecision, myTurn, samePending, seatName, ui, usePlan,
} from "./state.js";

const hooks = {
  sit: (seat) => joinTable(ui.tableId, seat).then(() => openTable(ui.tableId)).catch((e) => toast(e.message)),
  redraw: () => redraw(),
};

export function redraw() {
  render(hooks);
  renderAfter();
}

export function closeTable() {
  if (ui.net) ui.net.close();
  ui.net = null;
  ui.connected = false;
}

export function openTable(id) {
  closeTable();
  ui.tableId = id;
  ui.token = localStorage.getItem(`ofc-seat-${id}`);
  ui.state = null;
  ui.decisionKey = "";
  ui.notice = "";
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("where").textContent = tr("table {number}", { number: id });
  $("status").textContent = tr("Connecting\u2026");
  showBalance();
  ui.net = new TableSocket(id, {
    onOpen() {
      ui.connected = true;
      ui.net.send({ type: "hello", token: ui.token });
    },
    onMessage: receive,
    onDown(delay) {
      ui.connected = false;
      $("offline").textContent = tr("Disconnected: reconnecting in {seconds} s\u2026 Your unconfirmed cards are kept.", { seconds: Math.ceil(delay / 1000) });
      if (ui.state) redraw();
      else $("status").textContent = tr("Disconnected: reconnecting\u2026");
    },
  });
  ui.net.open();
}

function forgetToken() {
  ui.token = null;
  localStorage.removeItem(`ofc-seat-${ui.tableId}`);
}

// The seats (table seat numbers) whose cards the server placed because their time ran out
// between two states: they acted, in the same hand, at or after their clock's deadline.
function timedOut(before, after) {
  if (!before || !before.hand || !after.hand || before.hand_number !== after.hand_number) return [];
  const now = Number(after.hand.now);
  return before.hand.to_act.filter((seat) => {
    const clock = before.hand.seats[seat].clock;
    return clock.running && clock.deadline !== null && !after.hand.to_act.includes(seat)
      && now >= Number(clock.deadline) - 0.05 && seat !== after.hand.seat;
  }).map((seat) => after.hand_seats[seat]);
}

// Did the server place my cards (time ran out) while I had not confirmed?
function autoPlaced(before, after) {
  if (!before || !before.hand || !after.hand || before.discard_due === null || before.discard_due === undefined) return false;
  if (before.hand_number !== after.hand_number || after.hand.seat === null) return false;
  const count = (state) => {
    const seat = state.hand.seats[state.hand.seat];
    return seat.top.length + seat.middle.length + seat.bottom.length;
  };
  return count(after) > count(before) && !ui.acked;
}

function onState(message) {
  const before = ui.state;
  if (message.finished && !(before && before.finished)) showBalance();
  const others = timedOut(before, message).map((seat) => seatName(seat));
  if (autoPlaced(before, message)) {
    ui.notice = () => tr("Your time ran out: your cards were placed automatically.");
    toast(ui.notice());
  } else if (others.length) {
    ui.notice = () => tr("{names}: time ran out, cards placed automatically.", { names: others.join(", ") });
  } else if (message.hand_number !== (before && before.hand_number)) ui.notice = "";
  ui.acked = false;
  ui.state = message;
  ui.received = performance.now();
  keepDecision();
  redraw();
}

function onHint(message, solver) {
  stopThinking();
  if (message.held) {
    ui.notice = () => tr("The answer took longer than usual: no clock ran for {seconds} s of it.", { seconds: formatNumber(Number(message.held)) });
  }
  const fantasy = myTurn() && ui.state.hand.seats[ui.state.hand.seat].fantasy > 0;
  const value = message.value;
  let words;
  if (solver) words = () => tr("The exact solver's arrangement");
  else if (fantasy) {
    words = value === null ? () => tr("The exact fantasy solver's board")
      : () => tr("The exact fantasy solver's board ({royalties} in royalties)", { royalties: formatNumber(value) });
  } else if (message.unsure) {
    words = () => tr("The pro bot's choice (unsure: too few play-outs to put a number on it)");
  } else {
    words = value === null ? () => tr("The pro bot's choice")
      : () => tr("pro bot: {points} points expected, foul risk charged", { points: formatSigned(value.toFixed(2)) });
  }
  if (!myTurn() || ui.hintKey !== ui.decisionKey) {
    // an answer for a decision already made (a Confirm sent while the hint was worked out)
    ui.advice = "";
    ui.hintBase = null;
    redraw();
    return;
  }
  keepChoices(solver ? [] : message.choices, ui.hintBase || {}, !solver && message.unsure);
  if (samePending(ui.hintBase, ui.pending)) {
    ui.advice = () => tr("{advice}. Confirm to play it.", { advice: words() });
    usePlan(message.action);
  } else {
    // the player moved cards while the hint was being worked out: offer it, never apply it
    ui.advice = () => tr("{advice} is ready; your own placements are kept.", { advice: words() });
    ui.offer = message.action;
  }
  ui.hintBase = null;
  redraw();
}

function receive(message) {
  switch (message.type) {
    case "state": onState(message); break;
    case "welcome":
      if (message.seat === null && ui.token) { forgetToken(); toast(plainError("bad_token")); }
      break;
    case "ack":
      ui.acked = true;
      clearPending();
      break;
    case "hint": onHint(message, false); break;
    case "solution": onHint(message, true); break;
    case "error": {
      if (message.id && message.id === ui.hintId) stopThinking();
      if (message.id && message.id === ui.hintId && ui.hintKey !== ui.decisionKey) {
        ui.hintId = 0; // the refused hint was for a decision already made: nothing to say
        break;
      }
      if (message.code === "bad_token") forgetToken();
      ui.advice = "";
      ui.hintBase = null;
      const hand = ui.state && ui.state.hand;
      const first = hand && hand.to_act.length ? seatName(ui.state.hand_seats[hand.to_act[0]]) : "";
      toast(plainError(message, first));
      if (ui.state) redraw();
      break;
    }
    default: break;
  }
}

export function confirmPlay() {
  if (!canAct()) return;
  const chosen = decision();
  if (!chosen) { toast(tr("Place every card first (and the discard, if one is due).")); return; }
  ui.net.send({ type: "act", token: ui.token, ...chosen });
}

export function askHint() {
  if (!canAct()) return;
  ui.hintBase = { ...ui.pending };
  ui.hintKey = ui.decisionKey;
  ui.offer = null;
  startThinking(false);
  redraw();
  ui.hintId = ui.net.send({ type: "hint", token: ui.token });
}

export function askSolver() {
  if (!canAct()) return;
  ui.hintBase = { ...ui.pending };
  ui.hintKey = ui.decisionKey;
  startThinking(true);
  redraw();
  ui.hintId = ui.net.send({ type: "solve", token: ui.token });
}

export function takeOffer() {
  if (!ui.offer || !canAct()) return;
  usePlan(ui.offer);
  ui.advice = () => tr("The hint is on the board: confirm to play it.");
  redraw();
}

export function resetPlay() {
  clearPending();
  redraw();
}

// A running match or tournament left to the heuristic bot: the seat, its stake (or buy-in) and
// its result (or prize) stay the player's.
export async function leaveMatch() {
  const tournament = Boolean(ui.state && ui.state.tournament);
  const question = tournament
    ? tr("Leave the tournament? The heuristic bot plays your seat to the end; any prize goes to your balance.")
    : tr("Leave the match? The heuristic bot plays your seat to the end; your money stays at stake and the result goes to your balance.");
  if (!window.confirm(question)) return;
  try {
    await api(`/api/tables/${ui.tableId}/leave`, { token: ui.token });
    clearPending();
    ui.notice = () => (tournament ? tr("You left the tournament: the heuristic bot plays your seat to the end.")
      : tr("You left the match: the heuristic bot plays your seat to the end."));
    redraw();
  } catch (error) {
    toast(error.message);
  }
}

function seated(state) {
  return Boolean(state) && state.you !== null && state.you !== undefined && Boolean(ui.token);
}

function renderAfter() {
  const state = ui.state;
  if (!state) return;
  const mine = seated(state);
  const open = state.rematch === null || state.rematch === undefined;
  $("waiting").hidden = !(mine && state.table.status === "waiting");
  const left = mine && Boolean(state.table.seats[state.you].stand_in);
  $("playing-panel").hidden = !(mine && state.table.status === "playing" && !left && !state.finished);
  $("leave-match").textContent = state.tournament ? tr("Leave the tournament") : tr("Leave the match");
  $("leave-match-note").textContent = state.tournament
    ? tr("A bot then plays your seat to the end; any prize goes to your balance.")
    : tr("A bot then plays your seat to the end; your money stays at stake.");
  $("leave").textContent = state.tournament ? tr("Leave seat (buy-in back)") : tr("Leave seat");
  $("after").hidden = !state.finished || (open && !mine);
  $("after-title").textContent = state.tournament ? tr("Tournament over") : tr("Match over");
  let again;
  if (open) again = state.tournament ? tr("Play again") : tr("Rematch");
  else if (state.tournament) again = mine ? tr("Join the new tournament") : tr("Watch the new tournament");
  else again = mine ? tr("Join the rematch") : tr("Watch the rematch");
  $("rematch").textContent = again;
}

export async function leaveSeat() {
  try {
    await api(`/api/tables/${ui.tableId}/leave`, { token: ui.token });
    forgetToken();
    location.hash = "#/";
  } catch (error) {
    toast(error.message);
  }
}

export async function rematch() {
  try {
    const table = await api(`/api/tables/${ui.tableId}/rematch`, {});
    if (seated(ui.state) && !localStorage.getItem(`ofc-seat-${table.id}`)) await joinTable(table.id, ui.state.you);
    else location.hash = `#/table/${table.id}`;
  } catch (error) {
    toast(error.message);
  }
}
