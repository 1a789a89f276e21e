// The keep page: drawing a book (next hand, entry panel, result, table, hands, settlement, share).

import { $, RANKS, ROWS, SIZES, SUITS, api, cardNode, complete, discardSlots, el, handWords, hooks, rowLabel, save, signClass, signed, ui, usedCards } from "./keep-base.js";
import { formatAmount, formatNumber, tr, trc, trn } from "./i18n.js";
import { cardName } from "./util.js";
import { activeEntry, editHand, ensureDraft, flush, pendingAppends, pick, unpick } from "./keep-entry.js";

// ------------------------------------------------------------------ rendering

export function renderSync() {
  const node = $("k-sync");
  if (ui.readOnly) { node.textContent = tr("read only"); node.className = "k-sync"; return; }
  const waiting = ui.store.queue.length;
  node.textContent = waiting ? trn("{n} waiting to send", "{n} waiting to send", waiting) : ui.sending ? tr("sending\u2026") : tr("all saved");
  node.className = waiting ? "k-sync waiting" : "k-sync";
}

export function renderNext() {
  const state = ui.store.state;
  const node = $("k-next");
  node.replaceChildren();
  if (state.over) {
    node.append(el("b", "", tr("The match is over.")), ` ${trn("{n} hand.", "{n} hands.", state.hands.length)}`);
    return;
  }
  const draft = ui.store.draft;
  const pending = ui.readOnly ? 0 : pendingAppends();
  const number = state.hands.length + pending + 1;
  node.append(el("b", "", tr("Hand {number}", { number })));
  if (pending) {
    node.append(` \u2014 ${tr("scored when hand {number} reaches the server.", { number: number - 1 })}`);
  } else {
    node.append(` \u00b7 ${tr("button")} `, el("b", "", state.next.button), ` \u00b7 ${tr("order {names}", { names: state.next.order.join(", ") })}`);
    for (const [name, cards] of Object.entries(state.next.fantasy)) {
      node.append(el("span", "k-badge", trn("{name}: fantasy {n} card", "{name}: fantasy {n} cards", cards, { name })));
    }
  }
  if (state.loss_limit) {
    const limit = trn("loss limit {n} point", "loss limit {n} points", Number(state.loss_limit), { n: formatAmount(state.loss_limit) });
    node.append(el("div", "k-muted", `${limit} \u00b7 ${tr("{amount} a point", { amount: formatAmount(state.point_value) })}`));
  }
  if (draft && draft.editing) node.append(el("div", "", tr("Editing hand {number}.", { number: draft.number })));
}

export function renderEntry() {
  const draft = ui.store.draft;
  const state = ui.store.state;
  const editing = draft && draft.editing;
  $("k-entry").hidden = ui.readOnly || (!editing && state.over && !ui.store.blocked);
  if ($("k-entry").hidden) return;
  $("k-editing").hidden = !editing;
  $("k-editing").textContent = editing ? tr("Editing hand {number}: change the boards, then save.", { number: draft.number }) : "";
  $("k-cancel").hidden = !editing;
  const tabs = $("k-tabs");
  tabs.replaceChildren();
  const entry = activeEntry();
  const errorPlayer = draft.error ? (draft.error.field || "").split(".")[0] : "";
  for (const name of draft.order) {
    const item = draft.players[name];
    const button = el("button", "", `${name} ${item.dead ? "" : `${item.top.length + item.middle.length + item.bottom.length}/13`}`);
    button.type = "button";
    button.dataset.player = name;
    if (name === ui.active) button.classList.add("active");
    if (item.dead) button.classList.add("dead");
    else if (complete(item)) button.classList.add("done");
    if (name === errorPlayer) button.classList.add("bad");
    button.addEventListener("click", () => { ui.active = name; render(); });
    tabs.append(button);
  }
  const board = $("k-board");
  board.replaceChildren();
  const deal = draft.fantasy[ui.active];
  if (deal) board.append(el("div", "k-badge", trn("{name} plays fantasy: {n} card dealt", "{name} plays fantasy: {n} cards dealt", deal, { name: ui.active })));
  if (entry.dead) {
    board.append(el("div", "k-dead-mark", tr("{name} did not finish: scored as a fouled hand", { name: ui.active })));
  } else {
    const rows = [...ROWS];
    if (discardSlots(ui.active)) rows.push("discards");
    let nextMarked = false;
    for (const row of rows) {
      const size = row === "discards" ? discardSlots(ui.active) : SIZES[row];
      const line = el("div", "k-row");
      line.dataset.row = row;
      if (draft.error && draft.error.field === `${ui.active}.${row}`) line.classList.add("bad");
      line.append(el("span", "k-label", rowLabel(row)));
      entry[row].forEach((card) => {
        const node = cardNode(card);
        node.addEventListener("click", () => unpick(row, card));
        line.append(node);
      });
      for (let slot = entry[row].length; slot < size; slot += 1) {
        const node = el("div", "k-slot");
        if (!nextMarked) { node.classList.add("next"); nextMarked = true; }
        line.append(node);
      }
      board.append(line);
    }
  }
  $("k-field-error").textContent = draft.error ? draft.error.message : "";
  $("k-dead").textContent = entry.dead ? tr("Not dead") : tr("Dead");
  $("k-save").disabled = !draft.order.every((name) => complete(draft.players[name]));
  $("k-save").textContent = editing ? tr("Save hand {number}", { number: draft.number }) : tr("Save hand");
  const used = usedCards("");
  const picker = $("k-picker");
  if (!picker.childElementCount) buildPicker(picker);
  for (const button of picker.children) button.setAttribute("aria-label", cardName(button.dataset.card));
  for (const button of picker.children) button.disabled = entry.dead || used.has(button.dataset.card);
}

export function buildPicker(picker) {
  for (const suit of Object.keys(SUITS)) {
    for (const rank of RANKS) {
      const card = rank + suit;
      const button = el("button", `k-pick s-${suit}`);
      button.type = "button";
      button.dataset.card = card;
      button.append(el("b", "", rank === "T" ? "10" : rank), el("i", "", SUITS[suit]));
      button.addEventListener("click", () => pick(card));
      picker.append(button);
    }
  }
}

export function renderResult() {
  const state = ui.store.state;
  const node = $("k-result");
  const number = ui.shown && ui.shown <= state.hands.length ? ui.shown : state.hands.length;
  node.hidden = number === 0;
  node.replaceChildren();
  if (!number) return;
  const hand = state.hands[number - 1];
  const title = el("h2", "", `${tr("Hand {number}", { number })} `);
  const fantasy = Object.entries(hand.fantasy).map(([n, c]) => `${n} (${formatNumber(c)})`).join(", ");
  const about = tr("button {name}", { name: hand.button });
  title.append(el("small", "", fantasy ? `${about} \u00b7 ${tr("fantasy {names}", { names: fantasy })}` : about));
  node.append(title);
  for (const name of hand.order) {
    const line = hand.players[name];
    const block = el("div", "k-player");
    block.dataset.player = name;
    const head = el("div", "");
    head.append(el("span", "k-name", `${name} `), el("span", signClass(line.points), signed(line.points)));
    if (line.points !== line.before_limit) head.append(el("span", "k-muted", ` ${tr("({points} before the loss limit)", { points: signed(line.before_limit) })}`));
    if (line.dead) head.append(el("span", "minus", ` \u00b7 ${tr("dead")}`));
    else if (line.fouled) head.append(el("span", "minus", ` \u00b7 ${tr("fouled")}`));
    if (line.earned) head.append(el("span", "k-badge", tr("fantasy next: {cards}", { cards: line.earned })));
    block.append(head);
    if (!line.dead) {
      const rows = el("div", "k-rows");
      ROWS.forEach((row, index) => {
        const bonus = line.royalties[row];
        rows.append(el("span", "", rowLabel(row)), el("span", "", handWords(line, index)), el("span", "", bonus ? signed(bonus) : "0"));
      });
      block.append(rows);
    }
    node.append(block);
  }
  const table = el("table", "k-pairs");
  const header = el("tr");
  const labels = [tr("pair"), trc("row short", "top"), trc("row short", "mid"), trc("row short", "bot"), tr("scoop"), tr("roy"), tr("total")];
  labels.forEach((label) => header.append(el("th", "", label)));
  table.append(header);
  for (const pair of hand.pairs) {
    const row = el("tr");
    row.append(el("td", "", tr("{first} v {second}", { first: pair.a, second: pair.b })));
    [...pair.rows, pair.scoop, pair.royalties, pair.total].forEach((value) => row.append(el("td", signClass(value), signed(value))));
    table.append(row);
  }
  node.append(table);
}

export function renderTable() {
  const state = ui.store.state;
  const table = $("k-table");
  table.replaceChildren();
  const head = el("tr");
  head.append(el("th", "", tr("player")));
  head.append(el("th", "", tr("points")), el("th", "", tr("money")));
  state.hands.forEach((hand) => head.append(el("th", "k-muted", `#${hand.number}`)));
  table.append(head);
  for (const name of state.book.players) {
    const row = el("tr");
    row.dataset.player = name;
    if (state.left.includes(name)) row.classList.add("out");
    const label = el("td", "", name);
    if (state.next && state.next.button === name) label.append(el("span", "k-badge", tr("D")));
    if (state.left.includes(name)) label.append(el("span", "k-badge", tr("out")));
    row.append(label);
    const points = state.totals.points[name];
    const money = state.totals.money[name];
    row.append(el("td", `k-total k-points ${signClass(points)}`, signed(points)), el("td", `k-total k-money ${signClass(money)}`, signed(money)));
    state.hands.forEach((hand) => {
      const cell = el("td", `k-hand ${signClass(hand.points[name])}`, signed(hand.points[name]));
      cell.dataset.hand = hand.number;
      row.append(cell);
    });
    table.append(row);
  }
}

export function renderHands() {
  const state = ui.store.state;
  const list = $("k-hands");
  list.replaceChildren();
  state.hands.forEach((hand) => {
    const item = el("li");
    const line = el("div");
    const points = hand.order.map((name) => `${name} ${signed(hand.points[name])}`).join(", ");
    line.append(el("span", "", `${tr("button {name}", { name: hand.button })}: ${points}`));
    if (!ui.readOnly) {
      const edit = el("button", "k-edit", tr("Edit"));
      edit.type = "button";
      edit.addEventListener("click", () => editHand(hand.number));
      line.append(edit);
      if (hand.number === state.hands.length && !ui.store.queue.length) {
        const undo = el("button", "k-undo", tr("Undo"));
        undo.type = "button";
        undo.addEventListener("click", () => {
          if (undo.dataset.armed !== "yes") { undo.dataset.armed = "yes"; undo.textContent = tr("Delete it?"); return; }
          ui.store.queue.push({ op: "delete", number: hand.number, count: state.hands.length });
          save();
          flush();
        });
        line.append(undo);
      }
    }
    item.append(line);
    list.append(item);
  });
  if (!ui.readOnly) {
    ui.store.queue.filter((op) => op.op === "put").forEach((op) => {
      const item = el("li", "k-pending", op.editing ? tr("edit of hand {number}: waiting to be sent", { number: op.number }) : tr("waiting to be sent"));
      list.append(item);
    });
  }
}

export function renderOver() {
  const state = ui.store.state;
  const node = $("k-over");
  node.hidden = !state.over;
  node.replaceChildren();
  if (!state.over) return;
  node.append(el("h2", "", tr("Settlement")));
  const list = el("ul", "k-settlement");
  if (!state.settlement.length) list.append(el("li", "", tr("Nobody owes anything.")));
  state.settlement.forEach((t) => list.append(el("li", "", tr("{payer} pays {payee} {amount}", { payer: t.from, payee: t.to, amount: formatAmount(t.amount) }))));
  node.append(list);
  if (state.following) {
    const link = el("a", "", tr("Go to the next book"));
    link.href = `/keep#${ui.readOnly ? "view" : "book"}=${state.following}`;
    node.append(link);
  } else if (!ui.readOnly) {
    const button = el("button", "k-primary", tr("New book: same players, button moved on"));
    button.type = "button";
    button.id = "k-again";
    button.addEventListener("click", async () => {
      try {
        const made = await api("POST", "/api/keep", { after: ui.code, key: ui.store.key });
        hooks.start(made);
      } catch (error) { node.append(el("p", "k-error", error.message)); }
    });
    node.append(button);
  }
}

export function renderShare() {
  const link = `${location.origin}/keep#view=${ui.code}`;
  $("k-link").value = link;
  const qr = $("k-qr");
  if (qr.dataset.code !== ui.code) { qr.src = `/api/keep/${ui.code}/qr.svg`; qr.dataset.code = ui.code; }
}

const VARIANTS = { classic: () => trc("variant", "classic"), turbo: () => trc("variant", "turbo"), pineapple: () => trc("variant", "pineapple") };

function variantWord(variant) {
  return VARIANTS[variant] ? VARIANTS[variant]() : String(variant);
}

export function render() {
  if (!ui.store || !ui.store.state) return;
  const state = ui.store.state;
  if (!ui.readOnly) ensureDraft();
  $("k-title").textContent = `${state.book.players.join(", ")} \u00b7 ${variantWord(state.variant)}`;
  renderSync();
  renderNext();
  renderEntry();
  renderResult();
  renderOver();
  renderTable();
  renderHands();
  renderShare();
  if (ui.store.notice) { $("k-field-error").textContent = ui.store.notice; }
}

