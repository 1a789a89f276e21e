// Small shared helpers of the browser client: DOM building, cards with spoken labels,
// plain-word error texts. No build step: plain ES modules. Every word a player reads goes
// through i18n.js (tr/trn/trc), numbers through its Intl formatters.
import { formatSignedAmount, localize, tr, trc } from "./i18n.js";

export const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
// Words a screen reader says, in the player's language (literal calls, for the extractor).
const RANK_WORDS = {
  A: () => trc("rank", "ace"), K: () => trc("rank", "king"), Q: () => trc("rank", "queen"),
  J: () => trc("rank", "jack"), T: () => trc("rank", "ten"), 9: () => trc("rank", "nine"),
  8: () => trc("rank", "eight"), 7: () => trc("rank", "seven"), 6: () => trc("rank", "six"),
  5: () => trc("rank", "five"), 4: () => trc("rank", "four"), 3: () => trc("rank", "three"),
  2: () => trc("rank", "two"),
};
// "ace of hearts": Russian "туз червей", Ukrainian "туз чирв" (the suit in the genitive plural).
const CARD_WORDS = {
  c: (rank) => trc("card", "{rank} of clubs", { rank }),
  d: (rank) => trc("card", "{rank} of diamonds", { rank }),
  h: (rank) => trc("card", "{rank} of hearts", { rank }),
  s: (rank) => trc("card", "{rank} of spades", { rank }),
};
export const RANK_ORDER = "23456789TJQKA";
export const ROWS = ["top", "middle", "bottom"];
export const SIZES = { top: 3, middle: 5, bottom: 5 };
export const $ = (id) => document.getElementById(id);

// A row's name in a sentence ("верхний" бокс) and as a short label (верх, сер., низ).
export function rowWord(row) {
  return { top: trc("row", "top"), middle: trc("row", "middle"), bottom: trc("row", "bottom") }[row] || row;
}

export function rowShort(row) {
  return { top: trc("row short", "top"), middle: trc("row short", "mid"), bottom: trc("row short", "bot") }[row] || row;
}

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// "Ah" -> "ace of hearts": what a screen reader says for a card.
export function cardName(text) {
  const rank = RANK_WORDS[text[0]] ? RANK_WORDS[text[0]]() : text[0];
  return CARD_WORDS[text[1]] ? CARD_WORDS[text[1]](rank) : `${rank} ${text[1]}`;
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
  node.setAttribute("aria-label", tr("face-down card"));
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

// A signed amount (points, money) in the player's language: "+1,5", "−3".
export function signed(value) {
  return formatSignedAmount(value);
}

export function plusMinus(value) {
  const number = Number(value);
  return number > 0 ? "plus" : number < 0 ? "minus" : "";
}

// What a refusal code means, in plain words ({name}: the player's or the seat's name).
const PLAIN = {
  bad_key: () => tr("This name belongs to another player: sign in with its player key, or pick another name."),
  bad_token: () => tr("This seat is no longer yours in this browser; you are watching."),
  no_table: () => tr("That table does not exist (any more)."),
  no_player: () => tr("No player has that name yet."),
  seat_taken: () => tr("Someone took that seat first: pick another one."),
  already_seated: () => tr("You already have a seat at this table."),
  table_full: () => tr("The table is full: you can watch it."),
  balance: () => tr("Your balance does not cover this table's loss limit."),
  not_finished: () => tr("The match is not over yet."),
  not_waiting: () => tr("The match has started: the seat cannot be left now."),
  not_playing: () => tr("No hand is being played right now."),
  left_seat: () => tr("You left this match: the bot plays your seat to the end."),
  no_hints: () => tr("This table is played without hints."),
  expired: () => tr("That table expired: nobody sat at it for a while."),
  not_in_hand: () => tr("You are not dealt in this hand."),
  no_hand: () => tr("That hand is not finished yet."),
  not_your_turn: (name) => tr("It is not your turn: {name} must act first.", { name }),
  not_fantasy: () => tr("The solver only sets fantasy hands."),
  unavailable: () => tr("The bot could not answer just now; try again."),
  bad_action: () => tr("That card or row is not in play."),
  bad_json: () => tr("The server could not read the message; reload the page."),
  bad_message: () => tr("The server could not read the message; reload the page."),
  unknown_type: () => tr("The server could not read the message; reload the page."),
  storage: () => tr("The table could not store that just now; nothing changed, try again."),
  busy: () => tr("A hint is still being worked out; wait for it."),
  offline: () => tr("The server cannot be reached; check the connection and try again."),
  bad_text: () => tr("Text may not contain NUL characters."),
  rate_limited: () => tr("Too many attempts: wait a moment, then try again."),
};

const ILLEGAL = {
  NotYourTurn: (name) => tr("It is not your turn: {name} must act first.", { name }),
  CardNotHeld: () => tr("That card is not among your cards (any more)."),
  DuplicateCard: () => tr("A card was used twice."),
  RowFull: () => tr("That row is full."),
  WrongDiscardCount: () => tr("Discard the right number of cards."),
  WrongPlacementCount: () => tr("Place every card you hold (except the discard)."),
  HandOver: () => tr("The hand is already over."),
  OutOfTime: () => tr("Your time ran out: your cards were placed for you."),
};

// The error kind an "illegal" refusal names: the nested error's kind, or the message's head.
function illegalKind(payload) {
  const params = payload.params || {};
  for (const value of Object.values(params)) if (value && value.kind) return value.kind;
  return String(payload.message || "").split(":")[0].trim();
}

// The words for a refusal: never the server's exception names or patterns. `payload` is the
// server's error ({code, message, kind?, template?, params?}) or just its code; `name` is who
// must act first. Where the server names a form's field and fault, its words are shown in the
// player's language when the template has a translation (localize), else in English.
export function plainError(payload, name) {
  const error = typeof payload === "string" ? { code: payload } : (payload || {});
  const code = error.code || "";
  const who = name || tr("another player");
  let text = PLAIN[code] ? PLAIN[code](who) : "";
  if (code === "illegal") {
    const kind = illegalKind(error);
    text = ILLEGAL[kind] ? ILLEGAL[kind](who) : tr("The table refused that move; it is unchanged.");
  } else if (code === "bad_request" || code === "bad_table" || code === "bad_book") {
    // the server names the field and the fault; keep that but drop any technical prefix
    let words = String(localize(error) || "").replace(/^[A-Za-z]+Error:\s*/, "");
    if (/pattern|regex/i.test(words)) words = tr("{field}: use letters, digits, spaces and _ . - only", { field: words.split(":")[0] });
    text = words ? tr("Please check the form: {problem}", { problem: words }) : tr("Please check the form.");
  }
  if (!text && /^http_5/.test(code)) text = tr("The server is not answering properly just now; try again in a moment.");
  return text || tr("Something went wrong; nothing was changed.");
}
