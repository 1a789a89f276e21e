// Row against row at the showdown (RULES.md "Hand ranking" and "Scoring"): which rows each
// player won against each opponent, and scoops. The engine's points decide the score; this
// only explains them (the test checks that both agree).
import { RANK_ORDER, ROWS } from "./util.js";

// A comparable key: [category, ranks...]. Categories on one ladder: 0 high card, 1 pair,
// 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house, 7 quads, 8 straight flush.
export function rowKey(cards) {
  const values = cards.map((card) => RANK_ORDER.indexOf(card[0]));
  const count = {};
  for (const value of values) count[value] = (count[value] || 0) + 1;
  const order = Object.keys(count).map(Number).sort((a, b) => (count[b] - count[a]) || (b - a));
  const shape = order.map((value) => count[value]).join("");
  if (cards.length === 3) return [{ 3: 3, 21: 1 }[shape] || 0, ...order];
  const flush = cards.every((card) => card[1] === cards[0][1]);
  const high = Math.max(...values);
  const distinct = order.length === 5;
  const wheel = distinct && [12, 0, 1, 2, 3].every((v) => values.includes(v));
  const straight = distinct && (high - Math.min(...values) === 4 || wheel);
  const top = wheel ? 3 : high;
  if (straight && flush) return [8, top];
  if (shape === "41") return [7, ...order];
  if (shape === "32") return [6, ...order];
  if (flush) return [5, ...order];
  if (straight) return [4, top];
  if (shape === "311") return [3, ...order];
  if (shape === "221") return [2, ...order];
  if (shape === "2111") return [1, ...order];
  return [0, ...order];
}

function compare(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d) return Math.sign(d);
  }
  return 0;
}

// {rows: [top, middle, bottom] each +1/0/-1, scoop: +1/0/-1} for player `a` against `b`.
export function rowsAgainst(a, b) {
  if (a.fouled && b.fouled) return { rows: [0, 0, 0], scoop: 0 };
  if (a.fouled) return { rows: [-1, -1, -1], scoop: -1 };
  if (b.fouled) return { rows: [1, 1, 1], scoop: 1 };
  const rows = ROWS.map((row) => compare(rowKey(a.board[row]), rowKey(b.board[row])));
  const scoop = rows.every((r) => r === 1) ? 1 : rows.every((r) => r === -1) ? -1 : 0;
  return { rows, scoop };
}

// What `a` wins from `b` under the rules, part by part (RULES.md "Scoring"): each row's points
// (classic 2 a row, american 1), the scoop bonus (american +3 on top of the rows, classic none)
// and the royalty difference. The parts add up to the engine's pairwise points.
export function pairParts(a, b, rules) {
  const { rows, scoop } = rowsAgainst(a, b);
  const american = rules.scoring === "american";
  const rowPoints = american ? 1 : 2;
  const bonus = american ? 3 : 0;
  return {
    rows: rows.map((r) => r * rowPoints),
    scoop: scoop * bonus,
    royalties: Number(a.royalties.total) - Number(b.royalties.total),
  };
}

// The points `a` wins from `b` under the rules (row points, scoop bonus, royalty difference).
export function pairPoints(a, b, rules) {
  const parts = pairParts(a, b, rules);
  return parts.rows.reduce((sum, points) => sum + points, 0) + parts.scoop + parts.royalties;
}
