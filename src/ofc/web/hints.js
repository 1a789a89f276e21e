// The hint's best choices (up to three, best first) with the number the bot ranks them by (the
// expected points less a charge for the risk of fouling, said in one line under them) and the
// share of their play-outs that fouled; an unsure hint (too few play-outs) shows no numbers.
// Each goes on the board with one click, but only while the board is as it was when the hint
// was asked (or shows one of the choices): cards the player moved since are never overwritten.
import { $, SUITS, cardName, el, rowShort, rowWord } from "./util.js";
import { formatPercent, formatSignedAmount, tr } from "./i18n.js";
import { canAct, samePending, ui, usePlan } from "./state.js";

function planOf(action) {
  const plan = {};
  for (const [card, row] of action.place) plan[card] = row;
  for (const card of action.discard) plan[card] = "discard";
  return plan;
}

// Whether the player has left the board alone since asking: a choice may then replace it.
export function boardUnchanged() {
  if (!ui.choiceBase) return false;
  if (samePending(ui.choiceBase, ui.pending)) return true;
  return ui.choices.some((choice) => samePending(planOf(choice.action), ui.pending));
}

// Remember the hint's choices, the board they were worked out for and whether it was unsure.
export function keepChoices(choices, base, unsure = false) {
  ui.choices = Array.isArray(choices) ? choices.filter((c) => c && c.action) : [];
  ui.choiceBase = base;
  ui.choicesUnsure = Boolean(unsure);
}

function shortCard(card) {
  return `${card[0] === "T" ? "10" : card[0]}${SUITS[card[1]] || card[1]}`;
}

// "bot A♥ K♦, mid 7♣, discard 2♠" (and the same with spoken card names for screen readers).
function describe(action, spoken) {
  const parts = [];
  for (const row of ["top", "middle", "bottom"]) {
    const cards = action.place.filter(([, r]) => r === row).map(([card]) => (spoken ? cardName(card) : shortCard(card)));
    if (cards.length) parts.push(`${spoken ? rowWord(row) : rowShort(row)} ${cards.join(spoken ? ", " : " ")}`);
  }
  if (action.discard.length) {
    parts.push(`${tr("discard")} ${action.discard.map((c) => (spoken ? cardName(c) : shortCard(c))).join(" ")}`);
  }
  return parts.join(spoken ? "; " : ", ");
}

function points(choice) {
  return typeof choice.value === "number" ? formatSignedAmount(choice.value.toFixed(2)) : "\u2014";
}

// Draw the choices under the advice; `redraw` draws the table again after one is taken.
export function renderChoices(redraw) {
  const box = $("choices");
  box.replaceChildren();
  const shown = canAct() && ui.choices.length > 0;
  box.hidden = !shown;
  if (!shown) return;
  const open = boardUnchanged();
  ui.choices.forEach((choice, index) => {
    const number = index + 1;
    const params = { number, points: points(choice), cards: describe(choice.action, false) };
    const spoken = { ...params, cards: describe(choice.action, true) };
    const fouls = typeof choice.foul === "number";
    const share = fouls ? formatPercent(choice.foul) : "";
    const valued = typeof choice.value === "number";
    let text;
    if (!valued) text = tr("{number}. {cards}", params);
    else if (fouls) text = tr("{number}. {points}, fouls {share}: {cards}", { ...params, share });
    else text = tr("{number}. {points}: {cards}", params);
    const button = el("button", "choice", text);
    button.type = "button";
    button.dataset.choice = String(index);
    button.disabled = !open;
    let label;
    if (!valued) label = tr("choice {number}: {cards}", spoken);
    else if (fouls) label = tr("choice {number}, {points} points expected with foul risk charged, a dead hand in {share} of play-outs: {cards}", { ...spoken, share });
    else label = tr("choice {number}, {points} points expected with foul risk charged: {cards}", spoken);
    button.setAttribute("aria-label", label);
    button.setAttribute("aria-pressed", samePending(planOf(choice.action), ui.pending) ? "true" : "false");
    button.addEventListener("click", () => {
      if (!canAct() || !boardUnchanged()) return;
      usePlan(choice.action);
      ui.advice = () => tr("Choice {number} is on the board: confirm to play it.", { number });
      redraw();
    });
    box.append(button);
  });
  const said = ui.choicesUnsure
    ? tr("Unsure: too few play-outs to put numbers on these choices.")
    : tr("Ranked by expected points less a charge for the risk of fouling.");
  box.append(el("p", "small muted choices-note", said));
  if (!open) box.append(el("p", "small muted", tr("You moved cards since the hint was asked: its choices are not applied over them.")));
}
