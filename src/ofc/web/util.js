// Small shared helpers of the browser client: DOM building, cards with spoken labels,
// plain-word error texts. No build step: plain ES modules.

export const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
export const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
export const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
  6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};
export const RANK_ORDER = "23456789TJQKA";
export const ROWS = ["top", "middle", "bottom"];
export const SIZES = { top: 3, middle: 5, bottom: 5 };
export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// "Ah" -> "ace of hearts": what a screen reader says for a card.
export function cardName(text) {
  return `${RANK_NAMES[text[0]] || text[0]} of ${SUIT_NAMES[text[1]] || text[1]}`;
}

export function cardEl(text, extra) {
  const node = el("div", `card suit-${text[1]} ${extra || ""}`);
  node.dataset.card = text;
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardName(text));
  const rank = el("span", "rank", text[0] === "T" ? "10" : text[0]);
  const suit = el("span", "suit", SUITS[text[1]]);
  rank.setAttribute("aria-hidden", "true");
  suit.setAttribute("aria-hidden", "true");
  node.append(rank, suit);
  return node;
}

export function backEl() {
  const node = el("div", "card back");
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", "face-down card");
  return node;
}

export function toast(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function signed(value) {
  const number = Number(value);
  return `${number > 0 ? "+" : ""}${value}`;
}

export function plusMinus(value) {
  const number = Number(value);
  return number > 0 ? "plus" : number < 0 ? "minus" : "";
}

// What a refusal code means, in plain words ({name}: the player's or the seat's name).
const PLAIN = {
  bad_key: "This name belongs to another player: sign in with its player key, or pick another name.",
  bad_token: "This seat is no longer yours in this browser; you are watching.",
  no_table: "That table does not exist (any more).",
  no_player: "No player has that name yet.",
  seat_taken: "Someone took that seat first: pick another one.",
  already_seated: "You already have a seat at this table.",
  table_full: "The table is full: you can watch it.",
  balance: "Your balance does not cover this table's loss limit.",
  not_finished: "The match is not over yet.",
  not_waiting: "The match has started: the seat cannot be left now.",
  not_playing: "No hand is being played right now.",
  not_in_hand: "You are not dealt in this hand.",
  not_your_turn: "It is not your turn: {name} must act first.",
  not_fantasy: "The solver only sets fantasy hands.",
  unavailable: "The bot could not answer just now; try again.",
  bad_action: "That card or row is not in play.",
  bad_json: "The server could not read the message; reload the page.",
  bad_message: "The server could not read the message; reload the page.",
  unknown_type: "The server could not read the message; reload the page.",
  bad_text: "Text may not contain NUL characters.",
  rate_limited: "Too many attempts: wait a moment, then try again.",
};

const ILLEGAL = {
  NotYourTurn: "It is not your turn: {name} must act first.",
  CardNotHeld: "That card is not among your cards (any more).",
  DuplicateCard: "A card was used twice.",
  RowFull: "That row is full.",
  WrongDiscardCount: "Discard the right number of cards.",
  WrongPlacementCount: "Place every card you hold (except the discard).",
  HandOver: "The hand is already over.",
  OutOfTime: "Your time ran out: your cards were placed for you.",
};

// The words for a refusal: never the server's exception names or patterns.
export function plainError(code, message, name) {
  let text = PLAIN[code];
  if (code === "illegal") {
    const head = String(message || "").split(":")[0].trim();
    text = ILLEGAL[head] || "The table refused that move; it is unchanged.";
  } else if (code === "bad_request" || code === "bad_table") {
    // the server names the field and the fault; keep that but drop any technical prefix
    let words = String(message || "").replace(/^[A-Za-z]+Error:\s*/, "");
    if (/pattern|regex/i.test(words)) words = `${words.split(":")[0]}: use letters, digits, spaces and _ . - only`;
    text = words ? `Please check the form: ${words}` : "Please check the form.";
  }
  if (!text && /^http_5/.test(code || "")) text = "The server is not answering properly just now; try again in a moment.";
  if (!text) text = "Something went wrong; nothing was changed.";
  return text.replace("{name}", name || "another player");
}
