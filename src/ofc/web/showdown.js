// The showdown panel: each player's rows with hand names and royalties, fouls, fantasy
// earned, points against each opponent and the total. It stays until the player closes
// it or the next showdown replaces it (the state's `previous` keeps it through the next hand).
import { $, ROWS, cardEl, el, plusMinus, rowShort, signed } from "./util.js";
import { formatNumber, localize, tr, trc, trn } from "./i18n.js";
import { byStrength, seatName, sortRows, ui } from "./state.js";
import { pairParts, pairPoints, rowsAgainst } from "./rows.js";

function shown() {
  const state = ui.state;
  if (state.hand && state.hand.result) {
    return { number: state.hand_number, hand_seats: state.hand_seats, result: state.hand.result };
  }
  return state.previous || null;
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
function opponentsLine(player, showing) {
  const line = el("div", "vs small");
  const players = showing.result.players;
  const rules = ui.state.hand && ui.state.hand.rules;
  (player.vs || []).forEach((points, seat) => {
    if (seat === player.seat) return;
    const name = seatName(showing.hand_seats[seat]);
    const item = el("span", plusMinus(points), `${tr("vs {name}", { name })}: ${breakdownText(player, players[seat], rules)} \u2192 ${signed(points)}`);
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

export function renderShowdown() {
  const showing = shown();
  const visible = Boolean(showing) && showing.number !== ui.dismissed;
  $("showdown-panel").hidden = !visible;
  if (!visible) return;
  $("showdown-title").textContent = tr("Showdown, hand {number}", { number: showing.number + 1 });
  const box = $("showdown");
  box.replaceChildren();
  for (const player of showing.result.players) {
    const tableSeat = showing.hand_seats[player.seat];
    const block = el("div", `result${player.fouled ? " fouled" : ""}`);
    const title = el("div", "result-title");
    title.append(el("strong", "", seatName(tableSeat)));
    title.append(el("span", plusMinus(player.points), trn("total {points} point", "total {points} points", Math.abs(player.points), { points: signed(player.points) })));
    if (player.fouled) title.append(el("span", "badge foul", trc("badge", "FOULED")));
    if (player.fantasy) title.append(el("span", "badge fantasy", tr("fantasy next: {cards}", { cards: player.fantasy })));
    block.append(title);
    ROWS.forEach((row, index) => {
      const line = el("div", "result-row");
      const cards = el("span", "mini");
      const rowCards = sortRows() ? byStrength(player.board[row]) : player.board[row];
      for (const card of rowCards) cards.append(cardEl(card, "small"));
      line.append(cards, el("span", "hand-name", handName(player, index)));
      const royalty = player.royalties[row];
      if (royalty) line.append(el("span", "royalty", `+${royalty}`));
      block.append(line);
    });
    block.append(el("div", "muted small", tr("royalties {points}", { points: formatNumber(player.royalties.total) })));
    block.append(opponentsLine(player, showing));
    box.append(block);
  }
}

export function dismissShowdown() {
  const showing = shown();
  if (showing) ui.dismissed = showing.number;
  renderShowdown();
}
