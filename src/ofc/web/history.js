// The hand history panel: this seat's own copies of the table's finished hands (the
// server's `copy_for` the seat: other seats' discards stay face-down), street by street,
// each downloadable in the JSON hand-history format (docs/hand-history.md).
import { $, el, rowWord, signed, toast } from "./util.js";
import { tr, trn } from "./i18n.js";
import { api } from "./net.js";
import { ui } from "./state.js";

function cardsText(cards) {
  return cards.join(" ");
}

// "ann: Ah Kd bottom, 7c top; discards 2s" or "(1 discard face-down)" for another seat.
function actionText(doc, action) {
  const name = doc.seats ? doc.seats[action.seat] : tr("seat {number}", { number: action.seat + 1 });
  const rows = {};
  for (const [card, row] of action.place) (rows[row] = rows[row] || []).push(card);
  const parts = Object.entries(rows).map(([row, cards]) => `${cardsText(cards)} ${rowWord(row)}`);
  if (action.discard.length) parts.push(tr("discards {cards}", { cards: cardsText(action.discard) }));
  if (action.hidden_discards) parts.push(trn("{n} discard face-down", "{n} discards face-down", action.hidden_discards));
  return `${name}${action.automatic ? tr(" (automatic)") : ""}: ${parts.join(", ")}`;
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
    list.append(el("li", "small", actionText(doc, action)));
  }
  block.append(list);
  const link = el("a", "button small", tr("Download JSON"));
  link.href = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
  link.download = `ofc-table${ui.tableId}-hand${item.number + 1}.json`;
  block.append(link);
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
