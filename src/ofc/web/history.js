// The hand history panel: this seat's own copies of the table's finished hands (the
// server's `copy_for` the seat: other seats' discards stay face-down), street by street, the
// cards drawn as the table draws them,
// each downloadable in the JSON hand-history format (docs/hand-history.md), and each analysed
// on request: every decision of the seat against the best choice the server's analysis finds.
import { $, cardEl, el, plainError, rowWord, signed, toast } from "./util.js";
import { formatAmount, tr, trn } from "./i18n.js";
import { api } from "./net.js";
import { ui } from "./state.js";

const MARK = "\u0000";

// The cards drawn as the table draws them (small), in a line of text.
function cardsNode(cards) {
  const box = el("span", "cards-inline");
  for (const card of cards) box.append(cardEl(card, "small inline"));
  return box;
}

// A translated text whose one placeholder is a node: the words around it, and the node.
function withNode(text, node) {
  const [before, after = ""] = text.split(MARK);
  return [before, node, after].filter((part) => part !== "");
}

// [Ah Kd] bottom, [7c] top, discards [2s] (or "1 discard face-down" for another seat): nodes.
function placementNodes(action) {
  const rows = {};
  for (const [card, row] of action.place) (rows[row] = rows[row] || []).push(card);
  const parts = Object.entries(rows).map(([row, cards]) => [cardsNode(cards), ` ${rowWord(row)}`]);
  if (action.discard.length) parts.push(withNode(tr("discards {cards}", { cards: MARK }), cardsNode(action.discard)));
  if (action.hidden_discards) parts.push([trn("{n} discard face-down", "{n} discards face-down", action.hidden_discards)]);
  return parts.flatMap((part, index) => (index ? [", ", ...part] : part));
}

// "ann: [Ah Kd] bottom, [7c] top, discards [2s]".
function actionNodes(doc, action) {
  const name = doc.seats ? doc.seats[action.seat] : tr("seat {number}", { number: action.seat + 1 });
  return [`${name}${action.automatic ? tr(" (automatic)") : ""}: `, ...placementNodes(action)];
}

function line(cls, nodes) {
  const item = el("li", cls);
  item.append(...nodes);
  return item;
}

const points = (value) => formatAmount(Number(value).toFixed(2));
const signedPoints = (value) => `${value > 0 ? "+" : ""}${points(value)}`;

// One decision of the analysis: what was played, the best choice, the loss and its interval; a
// loss beyond the noise of the hint's own play-outs and of at least the flag is a mistake, one
// within it is said to be within noise.
function decisionItem(decision) {
  const street = tr("Street {number}", { number: decision.street + 1 });
  if (decision.kind !== "street") {
    const why = decision.kind === "fantasy" ? tr("a fantasy hand, set by the solver: not priced") : tr("placed automatically: not priced");
    return line("small muted", [`${street}: `, ...placementNodes(decision.played), ` (${why})`]);
  }
  const item = el("li", decision.flagged ? "small mistake" : "small");
  const played = withNode(tr("you played {move} ({value})", { move: MARK, value: signedPoints(decision.played_value) }), placementNodes(decision.played));
  const verdict = decision.loss > 0
    ? withNode(tr("best {move} ({value}): loss {loss} ± {interval}", {
      move: MARK, value: signedPoints(decision.best_value), loss: points(decision.loss), interval: points(decision.ci95),
    }), placementNodes(decision.best))
    : [tr("the best choice found")];
  item.append(`${street}: `, ...played.flat(), "; ", ...verdict.flat());
  if (decision.flagged) item.append(el("strong", "", ` ${tr("a mistake")}`));
  else if (decision.within_noise) item.append(el("span", "muted noise", ` ${tr("within noise")}`));
  return item;
}

async function analyse(item, box, button) {
  button.disabled = true;
  box.replaceChildren(el("p", "muted small", tr("Analysing: each choice is played out hundreds of times...")));
  try {
    const answer = await api(`/api/tables/${ui.tableId}/hands/${item.number}/analysis`, { token: ui.token });
    const list = el("ol", "analysis");
    for (const decision of answer.decisions) list.append(decisionItem(decision));
    box.replaceChildren(
      list,
      el("p", "small", tr("Expected loss in this hand, in points: {loss}", { loss: points(answer.total_loss) })),
      el("p", "small muted", tr("Values are expected points less a charge for the risk of fouling, as the hint ranks them; a loss within noise is one the hint's own play-outs could show by chance.")),
    );
  } catch (error) {
    const text = error.code === "no_hints" ? tr("At a table without hints, hands can be analysed once the match is over.") : error.message;
    box.replaceChildren(el("p", "small error", text || plainError(error.code)));
    button.disabled = false;
  }
}

function handBlock(item) {
  const doc = item.history;
  const block = el("details", "history-hand");
  const me = doc.result ? doc.result.players[doc.viewer] : null;
  const number = item.number + 1;
  const summary = me ? trn("Hand {number}: {points} point", "Hand {number}: {points} points", Math.abs(me.points), { number, points: signed(me.points) })
    : tr("Hand {number}", { number });
  block.append(el("summary", "", summary));
  const acted = {};
  const list = el("ol", "streets");
  let street = null;
  for (const action of doc.actions) {
    const number = acted[action.seat] || 0;
    acted[action.seat] = number + 1;
    if (number !== street) {
      street = number;
      list.append(el("li", "street-head", tr("Street {number}", { number: number + 1 })));
    }
    list.append(line("small", actionNodes(doc, action)));
  }
  block.append(list);
  const link = el("a", "button small", tr("Download JSON"));
  link.href = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
  link.download = `ofc-table${ui.tableId}-hand${item.number + 1}.json`;
  const button = el("button", "small analyse", tr("Analyse my decisions"));
  button.type = "button";
  const box = el("div", "analysis-box");
  box.setAttribute("aria-live", "polite");
  button.addEventListener("click", () => analyse(item, box, button));
  block.append(link, " ", button, box);
  return block;
}

export async function showHistory() {
  if (!ui.token) { toast(tr("Only a seated player sees the hand history.")); return; }
  try {
    const answer = await api(`/api/tables/${ui.tableId}/hands`, { token: ui.token });
    const box = $("history");
    box.replaceChildren();
    if (!answer.hands.length) box.append(el("p", "muted small", tr("No finished hands yet.")));
    for (const item of answer.hands.slice().reverse()) box.append(handBlock(item));
    $("history-panel").hidden = false;
  } catch (error) {
    toast(error.message);
  }
}
