// Sit-and-go tournaments in the browser: the lobby form's settings, and the table's
// tournament panel (level, chips per point, chips, places, prizes) drawn from the state's
// `tournament` field (docs/protocol.md). Imported by app.js; no build step.

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

function chips(count) {
  return `${count} chip${count === 1 ? "" : "s"}`;
}

function placeText(finish) {
  if (!finish) return "";
  if (finish.tied === 1) return ordinal(finish.place);
  return `${ordinal(finish.place)}\u2013${ordinal(finish.place + finish.tied - 1)} (tied)`;
}

function percent(share) {
  return `${Math.round(Number(share) * 1000) / 10}%`;
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
  return `tournament, buy-in ${table.rules.buy_in}`;
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
    const won = Number(prize) > 0 ? ` and won ${prize}` : ", out of the money";
    const you = mine ? ` You finished ${placeText(mine)}${won}.` : "";
    return `The tournament is over: places and prizes are in the results panel, the prizes in the balances.${you}`;
  }
  if (state.you !== null && facts.places[state.you]) {
    return `You are out in ${placeText(facts.places[state.you])} place; watching the rest. `;
  }
  return "";
}

// " (level 2, 5 chips a point)" after a tournament hand's number in the status line; at the
// showdown, the level the hand was played at (the facts already describe the next hand).
export function levelTag(state) {
  const facts = state.tournament;
  if (!facts) return "";
  const played = state.hand && state.hand.result && facts.last_hand ? facts.last_hand : facts;
  return ` (level ${played.level + 1}, ${chips(played.chips_per_point)} a point)`;
}

function levelLine(facts) {
  const head = `Level ${facts.level + 1}: ${chips(facts.chips_per_point)} a point`;
  if (facts.hands_left === null) return `${head} (last level).`;
  const hands = `${facts.hands_left} hand${facts.hands_left === 1 ? "" : "s"}`;
  return `${head}, ${hands} left at this level, then ${facts.next_chips_per_point}.`;
}

function standingsTable(state, seatName) {
  const facts = state.tournament;
  const grid = el("table", "ledger standings");
  const head = el("tr");
  const over = Boolean(facts.prizes);
  for (const text of ["", "chips", "last hand", over ? "place" : "out", ...(over ? ["prize"] : [])]) {
    head.append(el("th", "", text));
  }
  grid.append(head);
  const order = state.table.seats.map((seat) => seat.seat);
  if (over) order.sort((a, b) => facts.places[a].place - facts.places[b].place);
  for (const seat of order) {
    const line = el("tr", facts.places[seat] && !over ? "out" : "");
    line.append(el("td", seat === state.you ? "me-name" : "", seatName(seat)));
    line.append(el("td", "", String(facts.chips[seat])));
    const won = facts.last_hand ? facts.last_hand.won[seat] : 0;
    line.append(el("td", won > 0 ? "plus" : won < 0 ? "minus" : "", won > 0 ? `+${won}` : String(won)));
    line.append(el("td", "place", placeText(facts.places[seat])));
    if (over) line.append(el("td", Number(facts.prizes[seat]) > 0 ? "plus" : "", facts.prizes[seat]));
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
  $("tournament-title").textContent = facts.prizes ? "Tournament results" : "Tournament";
  const box = $("tournament");
  const pool = `Buy-in ${facts.buy_in} \u00b7 prize pool ${facts.prize_pool} \u00b7 paid ${facts.payouts.map(percent).join(" / ")}`;
  const lines = [el("p", "small muted", pool)];
  if (!facts.prizes) lines.push(el("p", "level", levelLine(facts)));
  lines.push(standingsTable(state, seatName));
  box.replaceChildren(...lines);
}
