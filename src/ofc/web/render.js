// Drawing the table from the last state message: boards, the cards to place, the buttons,
// the status line, the ledger and the tab title. Input handlers come from input.js.
import { chipBadge, levelTag, renderTournament, tournamentStatus } from "./tournament.js";
import { $, ROWS, SIZES, backEl, cardEl, clockText, el, plusMinus, rowWord } from "./util.js";
import { formatSignedAmount, tr, trn } from "./i18n.js";
import { bindCard, bindTarget, restoreFocus, rememberFocus } from "./input.js";
import { renderShowdown } from "./showdown.js";
import { renderRules } from "./rules-panel.js";
import { renderChoices } from "./hints.js";
import { tableWarming, tableWarmingText } from "./warming.js";
import { byStrength, canAct, decision, myTurn, seatName, sortRows, ui } from "./state.js";

function seatClock(seat, mine) {
  const clock = seat.clock;
  const box = el("span", `clock${mine ? " my-clock" : ""}`);
  box.dataset.hand = clock.hand;
  box.dataset.bank = clock.bank;
  box.dataset.running = clock.running ? "1" : "";
  return box;
}

// Seconds left on a clock box now (hand clock, then bank).
function clockLeft(box, elapsed) {
  let hand = Number(box.dataset.hand);
  let bank = Number(box.dataset.bank);
  if (box.dataset.running) {
    if (elapsed <= hand) hand -= elapsed;
    else { bank = Math.max(0, bank - (elapsed - hand)); hand = 0; }
  }
  return { hand, bank };
}

export const LOW_SECONDS = 15;

export function tickClocks() {
  const elapsed = (performance.now() - ui.received) / 1000;
  let warning = "";
  for (const box of document.querySelectorAll(".clock")) {
    const { hand, bank } = clockLeft(box, elapsed);
    box.textContent = hand > 0 ? `${clockText(hand)} +${clockText(bank)}` : tr("bank {time}", { time: clockText(bank) });
    const running = Boolean(box.dataset.running);
    const low = running && hand + bank <= LOW_SECONDS;
    box.classList.toggle("running", running);
    box.classList.toggle("low", low);
    if (low && box.classList.contains("my-clock") && myTurn()) {
      // a fixed text, so that a screen reader says it once, not at every tick
      warning = tr("Under {seconds} s left: at 0 your cards are placed automatically.", { seconds: LOW_SECONDS });
    }
  }
  const line = $("low-time");
  if (line && line.textContent !== warning) line.textContent = warning;
  if (line) line.hidden = !warning;
}

function rowCards(seat, row) {
  return sortRows() ? byStrength(seat[row]) : seat[row];
}

function boardEl(seat, mine) {
  const state = ui.state;
  const hand = state.hand;
  const tableSeat = state.hand_seats[seat.seat];
  const box = el("div", `board${mine ? " mine" : ""}${hand.to_act.includes(seat.seat) ? " acting" : ""}`);
  box.dataset.seat = tableSeat;
  const title = el("div", "board-title");
  title.append(el("span", "name", seatName(tableSeat)));
  if (hand.button === seat.seat) {
    const button = el("span", "dealer", tr("D"));
    button.title = tr("button");
    title.append(button);
  }
  const info = state.table.seats[tableSeat];
  if (info && info.stand_in) {
    title.append(el("span", "badge away", tr("left: the {bot} bot plays", { bot: info.stand_in })));
  } else if (info && info.connected === false) {
    title.append(el("span", "badge away", tr("disconnected")));
  }
  const chips = chipBadge(state, tableSeat);
  if (chips) title.append(chips);
  if (seat.fantasy) title.append(el("span", "badge fantasy", tr("fantasy {cards}", { cards: seat.fantasy })));
  if (seat.done) title.append(el("span", "badge", tr("done")));
  else if (seat.holding && !mine) title.append(el("span", "badge", tr("holding {cards}", { cards: seat.holding })));
  title.append(seatClock(seat, mine));
  box.append(title);
  let hidden = seat.hidden;
  const acting = mine && myTurn();
  for (const row of ROWS) {
    const line = el("div", "row");
    line.dataset.row = row;
    for (const card of rowCards(seat, row)) line.append(cardEl(card));
    if (acting) {
      for (const card of ui.order) {
        if (ui.pending[card] !== row) continue;
        const node = cardEl(card, "pending");
        bindCard(node, card);
        line.append(node);
      }
      const free = Math.max(0, SIZES[row] - line.children.length);
      bindTarget(line, row, tr("{row} row, {free} free (Enter or {key}: place the selected card)", { row: rowWord(row), free, key: row[0] }));
      line.classList.add("target");
    }
    while (line.children.length < SIZES[row]) {
      if (hidden > 0) { line.append(backEl()); hidden -= 1; } else line.append(el("div", "slot"));
    }
    box.append(line);
  }
  if (seat.discarded && !mine) box.append(el("div", "muted small", trn("{n} discarded", "{n} discarded", seat.discarded)));
  return box;
}

function statusText() {
  const state = ui.state;
  const tournament = tournamentStatus(state);
  if (state.finished) return tournament || tr("The match is over: the final ledger is in the match panel, the money in the balances.");
  if (state.table.status === "expired") return tr("This table expired: nobody sat at it for a while. Create or join another in the lobby.");
  if (tableWarming(state)) return tableWarmingText(state);
  if (state.table.status === "waiting") {
    const open = state.table.open_seats.length;
    return trn("Waiting for {n} more player: share this table's link.", "Waiting for {n} more players: share this table's link.", open);
  }
  const hand = state.hand;
  if (!hand) return "";
  const head = `${tr("Hand {number}", { number: state.hand_number + 1 })}${levelTag(state)}`;
  if (hand.result) return `${tournament}${tr("{hand}: showdown. Next hand in a moment\u2026", { hand: head })}`;
  const me = state.you !== null && state.you !== undefined ? state.table.seats[state.you] : null;
  if (me && me.stand_in) {
    if (state.tournament) return tr("{hand}: you left the tournament; the {bot} bot plays your seat and any prize goes to your balance.", { hand: head, bot: me.stand_in });
    return tr("{hand}: you left the match; the {bot} bot plays your seat and its result goes to your balance.", { hand: head, bot: me.stand_in });
  }
  if (myTurn()) {
    const due = state.discard_due;
    const count = hand.cards.length - due;
    const task = due ? tr("place {count}, discard {due}", { count, due }) : tr("place {count}", { count });
    return tr("{hand}: your turn \u2014 {task}. Click a card, then a row (or drag; keys: t m b d, c to confirm).", { hand: head, task });
  }
  const waiting = hand.to_act.map((s) => seatName(state.hand_seats[s])).join(", ");
  if (hand.to_act.some((s) => hand.seats[s].fantasy > 0)) {
    // RULES.md: fantasy hands are set first, face-down, before anyone else places a card
    const text = trn("{hand}: waiting for the fantasy hand of {names} to be set first.",
      "{hand}: waiting for the fantasy hands of {names} to be set first.", hand.to_act.length, { hand: head, names: waiting });
    return `${tournament}${text}`;
  }
  return `${tournament}${tr("{hand}: waiting for {names}.", { hand: head, names: waiting })}`;
}

function renderHand() {
  const state = ui.state;
  const area = $("hand");
  area.replaceChildren();
  const acting = myTurn();
  const cards = state.hand && state.hand.seat !== null ? state.hand.cards : [];
  for (const card of cards) {
    if (acting && ui.pending[card]) continue;
    const node = cardEl(card);
    if (acting) bindCard(node, card);
    area.append(node);
  }
  const zone = $("discard-zone");
  zone.hidden = !(acting && state.discard_due > 0);
  const pile = zone.querySelector(".discards");
  pile.replaceChildren();
  for (const card of ui.order) {
    if (ui.pending[card] !== "discard") continue;
    const node = cardEl(card, "pending");
    bindCard(node, card);
    pile.append(node);
  }
  $("me").hidden = !(state.hand && state.hand.seat !== null);
  // the buttons keep their place (a stable layout) but only show when the player may act
  $("play-buttons").classList.toggle("off", !acting);
  $("confirm").disabled = !(canAct() && decision());
  $("hint").disabled = !canAct();
  const hints = !(state.table.options && state.table.options.hints === false);
  $("hint").hidden = !hints;
  const fantasy = acting && state.hand.seats[state.hand.seat].fantasy > 0;
  $("solve").hidden = !(fantasy && hints);
  $("advice").textContent = typeof ui.advice === "function" ? ui.advice() : ui.advice;
  $("use-hint").hidden = !(acting && ui.offer);
  renderChoices(redrawAgain);
  $("notice").textContent = typeof ui.notice === "function" ? ui.notice() : ui.notice;
}

function renderLedger() {
  const state = ui.state;
  const grid = el("table", "ledger");
  const head = el("tr");
  for (const text of ["", tr("points"), tr("money")]) head.append(el("th", "", text));
  grid.append(head);
  state.table.seats.forEach((seat, index) => {
    const line = el("tr");
    line.append(el("td", index === state.you ? "me-name" : "", seatName(index)));
    for (const key of ["points", "money"]) {
      line.append(el("td", plusMinus(state.ledger[key][index]), formatSignedAmount(state.ledger[key][index])));
    }
    grid.append(line);
  });
  $("ledger").replaceChildren(grid);
}

function renderWaitingSeats(boards, onSit) {
  const state = ui.state;
  for (const seat of state.table.seats) {
    const box = el("div", "board waiting", seat.open ? "" : seatName(seat.seat));
    if (seat.open && state.you === null) {
      const sit = el("button", "primary", tr("Sit at seat {number}", { number: seat.seat + 1 }));
      sit.type = "button";
      sit.addEventListener("click", () => onSit(seat.seat));
      box.append(sit);
    } else if (seat.open) box.textContent = tr("(open seat)");
    boards.append(box);
  }
}

let wasMyTurn = false;

// A short beep when a turn starts, if the player asked for it (the "Sound on my turn" option).
function beep() {
  if (localStorage.getItem("ofc-sound") !== "on" || !window.AudioContext) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch (error) { /* no audio: the title still says it */ }
}

export function renderTitle() {
  const state = ui.state;
  const turn = Boolean(state) && myTurn();
  if (turn && !wasMyTurn) beep();
  wasMyTurn = turn;
  const base = state ? `${state.table.name} \u2014 ofc` : tr("ofc \u2014 Open Face Chinese Poker");
  document.title = state && myTurn() ? tr("\u25cf Your turn \u2014 {title}", { title: base }) : base;
}

let redrawAgain = () => {};

// Draw everything; `hooks.sit(seat)` sits the player down at a waiting table, `hooks.redraw()`
// draws the table again (after a hint's choice is taken).
export function render(hooks) {
  redrawAgain = hooks.redraw;
  const state = ui.state;
  if (!state) return;
  const focus = rememberFocus();
  $("status").textContent = statusText();
  $("offline").hidden = ui.connected;
  $("table").classList.toggle("disconnected", !ui.connected);
  const boards = $("boards");
  boards.replaceChildren();
  const myBoard = $("my-board");
  myBoard.replaceChildren();
  const hand = state.hand;
  if (hand) {
    for (const seat of hand.seats) {
      if (seat.seat === hand.seat) myBoard.append(boardEl(seat, true));
      else boards.append(boardEl(seat, false));
    }
  } else renderWaitingSeats(boards, hooks.sit);
  renderHand();
  if (state.ledger) renderLedger();
  renderTournament(state, seatName);
  renderShowdown();
  renderRules(state);
  renderTitle();
  tickClocks();
  restoreFocus(focus);
}
