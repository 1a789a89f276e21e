// Sit-and-go tournaments in the browser: the lobby form's settings, and the table's
// tournament panel (level, chips per point, chips, places, prizes) drawn from the state's
// `tournament` field (docs/protocol.md). Imported by app.js; no build step.
import { formatAmount, formatNumber, formatPercent, formatSigned, language, tr, trc, trn } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// 1st, 2nd, 3rd, 4th in English; 1-е, 2-е in Russian and Ukrainian (the language's ordinal rule).
const ORDINALS = {
  one: (n) => trc("ordinal", "{n}st", { n }),
  two: (n) => trc("ordinal", "{n}nd", { n }),
  few: (n) => trc("ordinal", "{n}rd", { n }),
  other: (n) => trc("ordinal", "{n}th", { n }),
};

export function ordinal(n) {
  const kind = new Intl.PluralRules(language(), { type: "ordinal" }).select(n);
  return (ORDINALS[kind] || ORDINALS.other)(n);
}

function chips(count) {
  return trn("{n} chip", "{n} chips", Number(count));
}

function placeText(finish) {
  if (!finish) return "";
  if (finish.tied === 1) return ordinal(finish.place);
  return tr("{first}\u2013{last} (tied)", { first: ordinal(finish.place), last: ordinal(finish.place + finish.tied - 1) });
}

function percent(share) {
  return formatPercent(share);
}

// ------------------------------------------------------------------ lobby

// Show the tournament settings or the match's money settings, as the kind select says.
export function showKindFields() {
  const tournament = document.querySelector("#create [name=kind]").value === "tournament";
  $("tournament-fields").hidden = !tournament;
  $("match-fields").hidden = tournament;
}

// The settings a tournament adds to the form's common ones (clocks, fantasy).
export function tournamentSettings(data) {
  const settings = {};
  for (const name of ["buy_in", "starting_chips", "level_hands", "chips_per_point", "payouts"]) {
    const value = String(data.get(name) || "").trim();
    if (value) settings[name] = value;
  }
  return settings;
}

// A lobby row's description of a tournament table.
export function listingText(table) {
  return tr("tournament, buy-in {amount}", { amount: formatAmount(table.rules.buy_in) });
}

// ------------------------------------------------------------------ table

// The chip count shown on a board's title (null outside tournaments).
export function chipBadge(state, tableSeat) {
  const facts = state.tournament;
  if (!facts) return null;
  return el("span", "badge chips", chips(facts.chips[tableSeat]));
}

// What the status line says of the tournament for this connection, or "" if nothing.
export function tournamentStatus(state) {
  const facts = state.tournament;
  if (!facts) return "";
  if (state.finished) {
    const mine = state.you === null ? null : facts.places[state.you];
    const prize = mine ? facts.prizes[state.you] : "0";
    let you = "";
    if (mine && Number(prize) > 0) you = tr(" You finished {place} and won {prize}.", { place: placeText(mine), prize: formatAmount(prize) });
    else if (mine) you = tr(" You finished {place}, out of the money.", { place: placeText(mine) });
    return `${tr("The tournament is over: places and prizes are in the results panel, the prizes in the balances.")}${you}`;
  }
  if (state.you !== null && facts.places[state.you]) {
    return tr("You are out in {place} place; watching the rest. ", { place: placeText(facts.places[state.you]) });
  }
  return "";
}

// " (level 2, 5 chips a point)" after a tournament hand's number in the status line; at the
// showdown, the level the hand was played at (the facts already describe the next hand).
export function levelTag(state) {
  const facts = state.tournament;
  if (!facts) return "";
  const played = state.hand && state.hand.result && facts.last_hand ? facts.last_hand : facts;
  return tr(" (level {level}, {chips} a point)", { level: played.level + 1, chips: chips(played.chips_per_point) });
}

function levelLine(facts) {
  const level = facts.level + 1;
  const each = chips(facts.chips_per_point);
  if (facts.hands_left === null) return tr("Level {level}: {chips} a point (last level).", { level, chips: each });
  return trn("Level {level}: {chips} a point, {n} hand left at this level, then {next}.",
    "Level {level}: {chips} a point, {n} hands left at this level, then {next}.", facts.hands_left,
    { level, chips: each, next: formatNumber(facts.next_chips_per_point) });
}

function standingsTable(state, seatName) {
  const facts = state.tournament;
  const grid = el("table", "ledger standings");
  const head = el("tr");
  const over = Boolean(facts.prizes);
  const heads = ["", tr("chips"), tr("last hand"), over ? tr("place") : tr("out"), ...(over ? [tr("prize")] : [])];
  for (const text of heads) {
    head.append(el("th", "", text));
  }
  grid.append(head);
  const order = state.table.seats.map((seat) => seat.seat);
  if (over) order.sort((a, b) => facts.places[a].place - facts.places[b].place);
  for (const seat of order) {
    const line = el("tr", facts.places[seat] && !over ? "out" : "");
    line.append(el("td", seat === state.you ? "me-name" : "", seatName(seat)));
    line.append(el("td", "", formatNumber(facts.chips[seat])));
    const won = facts.last_hand ? facts.last_hand.won[seat] : 0;
    line.append(el("td", won > 0 ? "plus" : won < 0 ? "minus" : "", formatSigned(won)));
    line.append(el("td", "place", placeText(facts.places[seat])));
    if (over) line.append(el("td", Number(facts.prizes[seat]) > 0 ? "plus" : "", formatAmount(facts.prizes[seat])));
    grid.append(line);
  }
  return grid;
}

// Fill the tournament panel (and hide the match ledger) for a tournament table.
export function renderTournament(state, seatName) {
  const facts = state.tournament;
  $("tournament-panel").hidden = !facts;
  $("ledger-panel").hidden = Boolean(facts);
  if (!facts) return;
  $("tournament-title").textContent = facts.prizes ? tr("Tournament results") : tr("Tournament");
  const box = $("tournament");
  const pool = tr("Buy-in {buy_in} \u00b7 prize pool {pool} \u00b7 paid {shares}",
    { buy_in: formatAmount(facts.buy_in), pool: formatAmount(facts.prize_pool), shares: facts.payouts.map(percent).join(" / ") });
  const lines = [el("p", "small muted", pool)];
  if (!facts.prizes) lines.push(el("p", "level", levelLine(facts)));
  lines.push(standingsTable(state, seatName));
  box.replaceChildren(...lines);
}
