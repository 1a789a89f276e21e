// Cards as people type them into the score book, the same reading as the server's
// ofc.rules.cards.read_typed_cards: "QsQh2c", "Q♠ Q♥ 2♣", "♠Q", "sQ", "10h", "Дп Кч".
// Words are split at spaces, commas and semicolons; each word holds whole cards, rank then suit
// or suit then rank, in either case. The Cyrillic т is clubs beside a rank and the ace beside a
// suit ("тт" is the ace of clubs). No imports: the page translates the refusals (keep-base.js).

const RANK_CODES = "23456789TJQKA";
const SUIT_CODES = "cdhs";
const TEN = "10";

// Lower-case symbol -> rank index (0 = deuce .. 12 = ace).
export const TYPED_RANKS = {
  ...Object.fromEntries([..."23456789tjqka"].map((symbol, index) => [symbol, index])),
  "\u0432": 9, // в: валет (jack)
  "\u0434": 10, // д: дама (queen)
  "\u043a": 11, // к: король (king)
  "\u0442": 12, // т: туз (ace)
};

// Lower-case symbol -> suit index (0 clubs, 1 diamonds, 2 hearts, 3 spades).
export const TYPED_SUITS = {
  ...Object.fromEntries([..."cdhs"].map((symbol, index) => [symbol, index])),
  ...Object.fromEntries([..."\u2663\u2666\u2665\u2660"].map((symbol, index) => [symbol, index])),
  ...Object.fromEntries([..."\u2667\u2662\u2661\u2664"].map((symbol, index) => [symbol, index])),
  "\u0442": 0, // т: трефы (clubs)
  "\u0431": 1, // б: бубны (diamonds)
  "\u0447": 2, // ч: червы (hearts)
  "\u043f": 3, // п: пики (spades)
};

// A refusal: `kind` names the form refused, `params` what to show (word and the symbols at fault).
export class CardTextError extends Error {
  constructor(kind, params) {
    super(`${kind}: ${JSON.stringify(params)}`);
    this.kind = kind;
    this.params = params;
  }
}

function rankOf(symbol) {
  if (symbol === TEN) return 8;
  const rank = TYPED_RANKS[symbol.toLowerCase()];
  return rank === undefined ? null : rank;
}

function suitOf(symbol) {
  const suit = TYPED_SUITS[symbol.toLowerCase()];
  return suit === undefined ? null : suit;
}

function symbolsOf(word) {
  const symbols = [];
  const chars = [...word];
  for (let index = 0; index < chars.length; index += 1) {
    if (chars[index] === "1" && chars[index + 1] === "0") { symbols.push(TEN); index += 1; }
    else symbols.push(chars[index]);
  }
  return symbols;
}

function readPair(first, second, word) {
  const pair = first + second;
  const readings = new Set();
  for (const [rank, suit] of [[rankOf(first), suitOf(second)], [rankOf(second), suitOf(first)]]) {
    if (rank !== null && suit !== null) readings.add(RANK_CODES[rank] + SUIT_CODES[suit]);
  }
  if (!readings.size) throw new CardTextError(suitOf(first) === null ? "two ranks" : "two suits", { word, pair });
  const latinSuit = pair.toLowerCase().replaceAll("\u0442", "");
  if (/[\u0442\u0422]/.test(pair) && latinSuit.length === 1 && "cdhs".includes(latinSuit)) {
    throw new CardTextError("mixed ace", { word, pair });
  }
  return [...readings][0]; // two readings only for "тт", the ace of clubs either way
}

function readWord(word) {
  const symbols = symbolsOf(word);
  for (const symbol of symbols) {
    if (rankOf(symbol) === null && suitOf(symbol) === null) throw new CardTextError("unknown", { word, char: symbol });
  }
  const cards = [];
  for (let start = 0; start + 1 < symbols.length; start += 2) cards.push(readPair(symbols[start], symbols[start + 1], word));
  if (symbols.length % 2) {
    const last = symbols[symbols.length - 1];
    const kind = suitOf(last) === null ? "rank alone" : rankOf(last) === null ? "suit alone" : "no pair";
    throw new CardTextError(kind, { word, last });
  }
  return cards;
}

// The cards of `text` as codes ("Qs"), in order; throws a CardTextError.
export function readTypedCards(text) {
  const cards = [];
  for (const word of text.replace(/[\ufe0e\ufe0f]/g, "").split(/[\s,;]+/)) {
    if (word) cards.push(...readWord(word));
  }
  return cards;
}
