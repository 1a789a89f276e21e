// The showdown on the table: while a hand's result is up, the middle of the table shows each
// board with its hand names per row, FOULED, fantasy earned, royalties and the points it won
// against each opponent, and the ledger's change for every player. It clears when the next
// hand is dealt (the details stay in the hand history); at the end of a match or tournament
// the last showdown stays, without a "next" fantasy.
import { $, ROWS, cardEl, el, plusMinus, rowShort, signed } from "./util.js";
import { formatNumber, formatSignedAmount, localize, tr, trc, trn } from "./i18n.js";
import { byStrength, seatName, sortRows, ui } from "./state.js";
import { pairParts, pairPoints, rowsAgainst } from "./rows.js";

// The showdown to show: this hand's result; at the end of a match, the last one.
export function shown(state) {
  if (!state) return null;
  if (state.hand && state.hand.result) {
    return { number: state.hand_number, hand_seats: state.hand_seats, result: state.hand.result };
  }
  return state.finished ? state.previous || null : null;
}

// One opponent's line before the arrow: what each row paid under the table's scoring (classic
// +-2, american +-1), the scoop and its bonus, the royalty difference, so the line adds up.
// Without the rules (not sent yet) only the rows won (+1), tied (0) or lost (-1).
export function breakdownText(player, other, rules) {
  const { rows, scoop } = rowsAgainst(player, other);
  const parts = rules ? pairParts(player, other, rules) : { rows, scoop: 0, royalties: 0 };
  const rowText = parts.rows.map((points, i) => `${rowShort(ROWS[i])} ${points ? signed(points) : "0"}`).join(" ");
  const bonus = parts.scoop ? ` ${signed(parts.scoop)}` : "";
  const scoopText = scoop > 0 ? `${tr(", scoop")}${bonus}` : scoop < 0 ? `${tr(", scooped")}${bonus}` : "";
  const royaltyText = parts.royalties ? `, ${tr("roy")} ${signed(parts.royalties)}` : "";
  return `${rowText}${scoopText}${royaltyText}`;
}

// Against each opponent: the breakdown, then the points.
function opponentsLine(player, showing, rules) {
  const line = el("div", "vs small");
  const players = showing.result.players;
  (player.vs || []).forEach((points, seat) => {
    if (seat === player.seat) return;
    const name = seatName(showing.hand_seats[seat]);
    const item = el("span", `vs-line ${plusMinus(points)}`);
    item.append(
      el("span", "vs-name", `${tr("vs {name}", { name })}: `),
      el("span", "vs-parts", `${breakdownText(player, players[seat], rules)} \u2192 `),
      el("span", "vs-points", signed(points)),
    );
    item.dataset.points = String(points);
    if (rules) item.dataset.computed = String(pairPoints(player, players[seat], rules));
    line.append(item);
  });
  return line;
}

// A row's hand name in the player's language: the server's phrase (template and params),
// else its English name.
export function handName(player, index) {
  const phrase = player.hand_phrases && player.hand_phrases[index];
  return phrase ? localize(phrase) : player.hands[index];
}

function boardPlate(player, showing, state, rules) {
  const tableSeat = showing.hand_seats[player.seat];
  const mine = tableSeat === state.you;
  const plate = el("div", `result${player.fouled ? " fouled" : ""}${mine ? " mine" : ""}`);
  plate.dataset.seat = String(tableSeat);
  const title = el("div", "result-title");
  title.append(el("strong", "result-name", seatName(tableSeat)));
  const total = el("span", `result-total ${plusMinus(player.points)}`,
    trn("total {points} point", "total {points} points", Math.abs(player.points), { points: signed(player.points) }));
  title.append(total);
  if (player.fouled) title.append(el("span", "badge foul", trc("badge", "FOULED")));
  // fantasy earned: "next" only while another hand is coming
  if (player.fantasy && !state.finished) {
    title.append(el("span", "badge fantasy", tr("fantasy next: {cards}", { cards: player.fantasy })));
  }
  title.append(el("span", "result-royalties muted small", tr("royalties {points}", { points: formatNumber(player.royalties.total) })));
  plate.append(title);
  ROWS.forEach((row, index) => {
    const line = el("div", "result-row");
    line.dataset.row = row;
    const cards = el("span", "mini");
    const rowCards = sortRows() ? byStrength(player.board[row]) : player.board[row];
    for (const card of rowCards) cards.append(cardEl(card, "small"));
    const words = el("span", "row-words");
    words.append(el("span", "hand-name", handName(player, index)));
    const royalty = player.royalties[row];
    if (royalty) words.append(el("span", "royalty", `+${formatNumber(royalty)}`));
    line.append(cards, words);
    plate.append(line);
  });
  plate.append(opponentsLine(player, showing, rules));
  return plate;
}

// The ledger's change: each player's points of this hand and where the ledger (or the
// tournament's chips) stands after it.
function ledgerChange(showing, state) {
  const grid = el("table", "ledger sd-ledger");
  const facts = state.tournament;
  grid.append(el("caption", "", facts ? tr("Tournament") : tr("Match ledger")));
  const head = el("tr");
  const heads = facts ? ["", tr("this hand"), tr("chips")] : ["", tr("this hand"), tr("points"), tr("money")];
  for (const text of heads) head.append(el("th", "", text));
  grid.append(head);
  for (const player of showing.result.players) {
    const tableSeat = showing.hand_seats[player.seat];
    const line = el("tr");
    line.dataset.seat = String(tableSeat);
    line.append(el("td", tableSeat === state.you ? "me-name" : "", seatName(tableSeat)));
    if (facts) {
      const won = facts.last_hand ? facts.last_hand.won[tableSeat] : 0;
      line.append(el("td", plusMinus(won), trn("{n} chip", "{n} chips", Math.abs(won), { n: signed(won) })));
      line.append(el("td", "", formatNumber(facts.chips[tableSeat])));
    } else {
      line.append(el("td", plusMinus(player.points), signed(player.points)));
      for (const key of ["points", "money"]) {
        const value = state.ledger ? state.ledger[key][tableSeat] : "0";
        line.append(el("td", plusMinus(value), formatSignedAmount(value)));
      }
    }
    grid.append(line);
  }
  return grid;
}

export function renderShowdown() {
  const state = ui.state;
  const showing = shown(state);
  const visible = Boolean(showing) && showing.number !== ui.dismissed;
  $("showdown-panel").hidden = !visible;
  $("table").classList.toggle("showing", visible);
  if (!visible) return;
  $("showdown-title").textContent = tr("Showdown, hand {number}", { number: showing.number + 1 });
  const rules = state.hand && state.hand.rules;
  const players = [...showing.result.players];
  // the viewer's own board first, then the others in seat order
  players.sort((a, b) => Number(showing.hand_seats[b.seat] === state.you) - Number(showing.hand_seats[a.seat] === state.you));
  $("showdown").replaceChildren(...players.map((player) => boardPlate(player, showing, state, rules)));
  // four boards on a phone: each opponent's points on one line (the breakdown stays in the history)
  $("showdown-panel").classList.toggle("many", players.length > 3);
  $("showdown-ledger").replaceChildren(ledgerChange(showing, state));
}

export function dismissShowdown() {
  const showing = shown(ui.state);
  if (showing) ui.dismissed = showing.number;
  renderShowdown();
}
