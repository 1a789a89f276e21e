// The keep page: one person keeps a live match's score from a phone (docs/keep.md).
// Plain JavaScript, no build step. The server scores everything; this page only enters boards.
// Unsent entries live in localStorage and are sent, in order, whenever the server answers.
"use strict";

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RANKS = "AKQJT98765432";
const ROWS = ["top", "middle", "bottom"];
const SIZES = { top: 3, middle: 5, bottom: 5 };
const LIST = "ofc-keep-books";
const $ = (id) => document.getElementById(id);

const ui = { code: null, readOnly: false, store: null, active: null, sending: false, poll: null, retry: null, shown: null };

// ------------------------------------------------------------------ helpers

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardNode(card, cls = "k-card") {
  const node = el("div", `${cls} s-${card[1]}`);
  node.append(el("b", "", card[0] === "T" ? "10" : card[0]), el("i", "", SUITS[card[1]]));
  node.dataset.card = card;
  return node;
}

function signed(value) {
  const text = String(value);
  return value > 0 ? `+${text}` : text;
}

function signClass(value) {
  return value > 0 ? "plus" : value < 0 ? "minus" : "";
}

async function api(method, path, body) {
  const options = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error((data.error && data.error.message) || `the server answered ${response.status}`);
    error.status = response.status;
    error.field = (data.error && data.error.field) || "";
    throw error;
  }
  return data;
}

function books() {
  return JSON.parse(localStorage.getItem(LIST) || "[]");
}

function remember(code, names) {
  const list = books().filter((item) => item.code !== code);
  list.unshift({ code, names, when: new Date().toISOString().slice(0, 16).replace("T", " ") });
  localStorage.setItem(LIST, JSON.stringify(list.slice(0, 30)));
}

function save() {
  localStorage.setItem(`ofc-keep-${ui.code}`, JSON.stringify(ui.store));
}

// ------------------------------------------------------------------ cards in a draft

function readCard(token) {
  let text = token.trim();
  if (/^10/.test(text)) text = `T${text.slice(2)}`;
  if (text.length !== 2) return null;
  const rank = text[0].toUpperCase();
  const suit = text[1].toLowerCase();
  return RANKS.includes(rank) && suit in SUITS ? rank + suit : null;
}

function emptyEntry() {
  return { top: [], middle: [], bottom: [], discards: [], dead: false };
}

function cardsOf(entry) {
  return [...entry.top, ...entry.middle, ...entry.bottom, ...entry.discards];
}

function usedCards(except) {
  const used = new Set();
  for (const [name, entry] of Object.entries(ui.store.draft.players)) {
    if (name !== except) cardsOf(entry).forEach((card) => used.add(card));
  }
  return used;
}

function discardSlots(name) {
  const deal = ui.store.draft.fantasy[name] || 0;
  return deal > 13 ? deal - 13 : 0;
}

function complete(entry) {
  return entry.dead || ROWS.every((row) => entry[row].length === SIZES[row]);
}

function entryJson(entry) {
  if (entry.dead) return "dead";
  const out = {};
  ROWS.forEach((row) => { out[row] = entry[row].join(" "); });
  if (entry.discards.length) out.discards = entry.discards.join(" ");
  return out;
}

function entryFromJson(value) {
  const entry = emptyEntry();
  if (value === "dead") entry.dead = true;
  else for (const row of [...ROWS, "discards"]) entry[row] = value[row] ? value[row].split(" ").filter(Boolean) : [];
  return entry;
}

function parseTyped(text, name) {
  if (text.trim().toLowerCase() === "dead") return { ...emptyEntry(), dead: true };
  const parts = text.split("/");
  if (parts.length < 3 || parts.length > 4) throw new Error(`${name}: write 'top / middle / bottom' (a 4th part for discards)`);
  const entry = emptyEntry();
  const seen = new Set(usedCards(name));
  parts.forEach((part, index) => {
    const row = [...ROWS, "discards"][index];
    for (const token of part.split(/[\s,;]+/).filter(Boolean)) {
      const card = readCard(token);
      if (!card) throw new Error(`${name}, ${row}: unknown card '${token}'`);
      if (seen.has(card)) throw new Error(`${name}, ${row}: card ${card} is already used in this hand`);
      seen.add(card);
      entry[row].push(card);
    }
    if (row !== "discards" && entry[row].length !== SIZES[row]) {
      throw new Error(`${name}, ${row} row: needs ${SIZES[row]} cards, got ${entry[row].length}`);
    }
  });
  return entry;
}

// ------------------------------------------------------------------ the draft of the hand being entered

function pendingAppends() {
  const state = ui.store.state;
  return ui.store.queue.filter((op) => op.op === "put" && op.number > state.hands.length).length;
}

function ensureDraft() {
  const state = ui.store.state;
  const draft = ui.store.draft;
  const number = state.hands.length + pendingAppends() + 1;
  if (draft && (draft.editing || draft.error || ui.store.blocked || draft.number === number)) return;
  const next = state.next;
  const fresh = pendingAppends() === 0 && next;
  const order = fresh ? next.order : (draft ? draft.order : state.book.players.filter((n) => !state.left.includes(n)));
  const players = {};
  // Boards already entered carry over when the hand's number moves (an undo, say).
  order.forEach((name) => { players[name] = (draft && draft.players[name]) || emptyEntry(); });
  ui.store.draft = { number, editing: false, order, fantasy: fresh ? next.fantasy : {}, players, error: null };
  ui.active = order[0];
  save();
}

function editHand(number) {
  const hand = ui.store.state.hands[number - 1];
  const players = {};
  hand.order.forEach((name) => { players[name] = entryFromJson(hand.players[name].entry); });
  ui.store.draft = { number, editing: true, order: hand.order, fantasy: hand.fantasy, players, error: null };
  ui.active = hand.order[0];
  save();
  render();
  $("k-entry").scrollIntoView();
}

function activeEntry() {
  const draft = ui.store.draft;
  if (!draft.order.includes(ui.active)) ui.active = draft.order[0];
  return draft.players[ui.active];
}

function advance() {
  const draft = ui.store.draft;
  const entry = activeEntry();
  if (!complete(entry) || entry.discards.length < discardSlots(ui.active)) return;
  const start = draft.order.indexOf(ui.active);
  for (let step = 1; step < draft.order.length; step += 1) {
    const name = draft.order[(start + step) % draft.order.length];
    if (!complete(draft.players[name])) { ui.active = name; return; }
  }
}

function pick(card) {
  const entry = activeEntry();
  if (entry.dead) entry.dead = false;
  const rows = [...ROWS];
  if (discardSlots(ui.active)) rows.push("discards");
  const row = rows.find((name) => entry[name].length < (name === "discards" ? discardSlots(ui.active) : SIZES[name]));
  if (!row) return;
  entry[row].push(card);
  ui.store.draft.error = null;
  advance();
  save();
  render();
}

function unpick(row, card) {
  const entry = activeEntry();
  entry[row] = entry[row].filter((item) => item !== card);
  save();
  render();
}

function saveDraft() {
  const draft = ui.store.draft;
  const hand = {};
  draft.order.forEach((name) => { hand[name] = entryJson(draft.players[name]); });
  const op = { op: "put", number: draft.number, hand, editing: draft.editing };
  if (ui.store.blocked) ui.store.queue.unshift(op);
  else ui.store.queue.push(op);
  ui.store.blocked = false;
  ui.store.draft = ui.store.parked || null;
  ui.store.parked = null;
  ui.shown = draft.number;
  ensureDraft();
  save();
  render();
  flush();
}

// ------------------------------------------------------------------ sending

async function flush() {
  if (ui.sending || ui.store.blocked || !ui.store.queue.length) return;
  ui.sending = true;
  renderSync();
  try {
    while (ui.store.queue.length && !ui.store.blocked) {
      const op = ui.store.queue[0];
      try {
        if (op.op === "put") {
          ui.store.state = await api("PUT", `/api/keep/${ui.code}/hands/${op.number}`, { key: ui.store.key, hand: op.hand });
        } else {
          const query = `key=${encodeURIComponent(ui.store.key)}&count=${op.count}`;
          ui.store.state = await api("DELETE", `/api/keep/${ui.code}/hands/${op.number}?${query}`);
        }
        ui.store.queue.shift();
        save();
      } catch (error) {
        if (!error.status) { scheduleRetry(); break; }
        ui.store.queue.shift();
        refused(op, error);
        save();
      }
    }
  } finally {
    ui.sending = false;
    render();
  }
}

function refused(op, error) {
  if (op.op !== "put") { ui.store.notice = error.message; return; }
  // Nothing entered is lost: the refused hand goes back into the entry panel, with the reason.
  const players = {};
  Object.entries(op.hand).forEach(([name, value]) => { players[name] = entryFromJson(value); });
  const order = Object.keys(op.hand);
  const old = ui.store.draft && !ui.store.draft.editing ? ui.store.draft : null;
  const fantasy = op.editing ? ui.store.state.hands[op.number - 1]?.fantasy || {} : (ui.store.state.next || {}).fantasy || {};
  ui.store.draft = { number: op.number, editing: op.editing, order, fantasy, players, error: { message: error.message, field: error.field } };
  ui.store.blocked = ui.store.queue.length > 0 || Boolean(old && old.order.some((name) => cardsOf(old.players[name]).length));
  ui.store.parked = old;
  ui.active = (error.field || "").split(".")[0] || order[0];
}

function scheduleRetry() {
  clearTimeout(ui.retry);
  ui.retry = setTimeout(flush, 3000);
}

async function refresh() {
  try {
    const state = await api("GET", `/api/keep/${ui.code}`);
    if (ui.readOnly) ui.store = { state, queue: [], draft: null };
    else if (!ui.store.queue.length) { ui.store.state = state; save(); }
    render();
  } catch (error) {
    if (error.status === 404) { $("k-title").textContent = error.message; }
  }
}

// ------------------------------------------------------------------ rendering

function renderSync() {
  const node = $("k-sync");
  if (ui.readOnly) { node.textContent = "read only"; node.className = "k-sync"; return; }
  const waiting = ui.store.queue.length;
  node.textContent = waiting ? `${waiting} waiting to send` : ui.sending ? "sending\u2026" : "all saved";
  node.className = waiting ? "k-sync waiting" : "k-sync";
}

function renderNext() {
  const state = ui.store.state;
  const node = $("k-next");
  node.replaceChildren();
  if (state.over) {
    node.append(el("b", "", "The match is over."), ` ${state.hands.length} hands.`);
    return;
  }
  const draft = ui.store.draft;
  const pending = ui.readOnly ? 0 : pendingAppends();
  const number = state.hands.length + pending + 1;
  node.append(el("b", "", `Hand ${number}`));
  if (pending) {
    node.append(` \u2014 scored when hand ${number - 1} reaches the server.`);
  } else {
    node.append(` \u00b7 button `, el("b", "", state.next.button), ` \u00b7 order ${state.next.order.join(", ")}`);
    for (const [name, cards] of Object.entries(state.next.fantasy)) node.append(el("span", "k-badge", `${name}: fantasy ${cards} cards`));
  }
  if (state.loss_limit) node.append(el("div", "k-muted", `loss limit ${state.loss_limit} points \u00b7 ${state.point_value} a point`));
  if (draft && draft.editing) node.append(el("div", "", `Editing hand ${draft.number}.`));
}

function renderEntry() {
  const draft = ui.store.draft;
  const state = ui.store.state;
  const editing = draft && draft.editing;
  $("k-entry").hidden = ui.readOnly || (!editing && state.over && !ui.store.blocked);
  if ($("k-entry").hidden) return;
  $("k-editing").hidden = !editing;
  $("k-editing").textContent = editing ? `Editing hand ${draft.number}: change the boards, then save.` : "";
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
  if (deal) board.append(el("div", "k-badge", `${ui.active} plays fantasy: ${deal} cards dealt`));
  if (entry.dead) {
    board.append(el("div", "k-dead-mark", `${ui.active} did not finish: scored as a fouled hand`));
  } else {
    const rows = [...ROWS];
    if (discardSlots(ui.active)) rows.push("discards");
    let nextMarked = false;
    for (const row of rows) {
      const size = row === "discards" ? discardSlots(ui.active) : SIZES[row];
      const line = el("div", "k-row");
      line.dataset.row = row;
      if (draft.error && draft.error.field === `${ui.active}.${row}`) line.classList.add("bad");
      line.append(el("span", "k-label", row === "discards" ? "discard" : row));
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
  $("k-dead").textContent = entry.dead ? "Not dead" : "Dead";
  $("k-save").disabled = !draft.order.every((name) => complete(draft.players[name]));
  $("k-save").textContent = editing ? `Save hand ${draft.number}` : "Save hand";
  const used = usedCards("");
  const picker = $("k-picker");
  if (!picker.childElementCount) buildPicker(picker);
  for (const button of picker.children) button.disabled = entry.dead || used.has(button.dataset.card);
}

function buildPicker(picker) {
  for (const suit of Object.keys(SUITS)) {
    for (const rank of RANKS) {
      const card = rank + suit;
      const button = el("button", `k-pick s-${suit}`);
      button.type = "button";
      button.dataset.card = card;
      button.append(el("b", "", rank === "T" ? "10" : rank), el("i", "", SUITS[suit]));
      button.setAttribute("aria-label", card);
      button.addEventListener("click", () => pick(card));
      picker.append(button);
    }
  }
}

function renderResult() {
  const state = ui.store.state;
  const node = $("k-result");
  const number = ui.shown && ui.shown <= state.hands.length ? ui.shown : state.hands.length;
  node.hidden = number === 0;
  node.replaceChildren();
  if (!number) return;
  const hand = state.hands[number - 1];
  const title = el("h2", "", `Hand ${number} `);
  title.append(el("small", "", `button ${hand.button}${Object.keys(hand.fantasy).length ? ` \u00b7 fantasy ${Object.entries(hand.fantasy).map(([n, c]) => `${n} (${c})`).join(", ")}` : ""}`));
  node.append(title);
  for (const name of hand.order) {
    const line = hand.players[name];
    const block = el("div", "k-player");
    block.dataset.player = name;
    const head = el("div", "");
    head.append(el("span", "k-name", `${name} `), el("span", signClass(line.points), signed(line.points)));
    if (line.points !== line.before_limit) head.append(el("span", "k-muted", ` (${signed(line.before_limit)} before the loss limit)`));
    if (line.dead) head.append(el("span", "minus", " \u00b7 dead"));
    else if (line.fouled) head.append(el("span", "minus", " \u00b7 fouled"));
    if (line.earned) head.append(el("span", "k-badge", `fantasy next: ${line.earned}`));
    block.append(head);
    if (!line.dead) {
      const rows = el("div", "k-rows");
      ROWS.forEach((row, index) => {
        const bonus = line.royalties[row];
        rows.append(el("span", "", row), el("span", "", line.hands[index]), el("span", "", bonus ? `+${bonus}` : "0"));
      });
      block.append(rows);
    }
    node.append(block);
  }
  const table = el("table", "k-pairs");
  const header = el("tr");
  ["pair", "top", "mid", "bot", "scoop", "roy", "total"].forEach((label) => header.append(el("th", "", label)));
  table.append(header);
  for (const pair of hand.pairs) {
    const row = el("tr");
    row.append(el("td", "", `${pair.a} v ${pair.b}`));
    [...pair.rows, pair.scoop, pair.royalties, pair.total].forEach((value) => row.append(el("td", signClass(value), signed(value))));
    table.append(row);
  }
  node.append(table);
}

function renderTable() {
  const state = ui.store.state;
  const table = $("k-table");
  table.replaceChildren();
  const head = el("tr");
  head.append(el("th", "", "player"));
  head.append(el("th", "", "points"), el("th", "", "money"));
  state.hands.forEach((hand) => head.append(el("th", "k-muted", `#${hand.number}`)));
  table.append(head);
  for (const name of state.book.players) {
    const row = el("tr");
    row.dataset.player = name;
    if (state.left.includes(name)) row.classList.add("out");
    const label = el("td", "", name);
    if (state.next && state.next.button === name) label.append(el("span", "k-badge", "D"));
    if (state.left.includes(name)) label.append(el("span", "k-badge", "out"));
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

function renderHands() {
  const state = ui.store.state;
  const list = $("k-hands");
  list.replaceChildren();
  state.hands.forEach((hand) => {
    const item = el("li");
    const line = el("div");
    const points = hand.order.map((name) => `${name} ${signed(hand.points[name])}`).join(", ");
    line.append(el("span", "", `button ${hand.button}: ${points}`));
    if (!ui.readOnly) {
      const edit = el("button", "k-edit", "Edit");
      edit.type = "button";
      edit.addEventListener("click", () => editHand(hand.number));
      line.append(edit);
      if (hand.number === state.hands.length && !ui.store.queue.length) {
        const undo = el("button", "k-undo", "Undo");
        undo.type = "button";
        undo.addEventListener("click", () => {
          if (undo.dataset.armed !== "yes") { undo.dataset.armed = "yes"; undo.textContent = "Delete it?"; return; }
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
      const item = el("li", "k-pending", op.editing ? `edit of hand ${op.number}: waiting to be sent` : "waiting to be sent");
      list.append(item);
    });
  }
}

function renderOver() {
  const state = ui.store.state;
  const node = $("k-over");
  node.hidden = !state.over;
  node.replaceChildren();
  if (!state.over) return;
  node.append(el("h2", "", "Settlement"));
  const list = el("ul", "k-settlement");
  if (!state.settlement.length) list.append(el("li", "", "Nobody owes anything."));
  state.settlement.forEach((t) => list.append(el("li", "", `${t.from} pays ${t.to} ${t.amount}`)));
  node.append(list);
  if (state.following) {
    const link = el("a", "", "Go to the next book");
    link.href = `/keep#${ui.readOnly ? "view" : "book"}=${state.following}`;
    node.append(link);
  } else if (!ui.readOnly) {
    const button = el("button", "k-primary", "New book: same players, button moved on");
    button.type = "button";
    button.id = "k-again";
    button.addEventListener("click", async () => {
      try {
        const made = await api("POST", "/api/keep", { after: ui.code, key: ui.store.key });
        start(made);
      } catch (error) { node.append(el("p", "k-error", error.message)); }
    });
    node.append(button);
  }
}

function renderShare() {
  const link = `${location.origin}/keep#view=${ui.code}`;
  $("k-link").value = link;
  const qr = $("k-qr");
  if (qr.dataset.code !== ui.code) { qr.src = `/api/keep/${ui.code}/qr.svg`; qr.dataset.code = ui.code; }
}

function render() {
  if (!ui.store || !ui.store.state) return;
  const state = ui.store.state;
  if (!ui.readOnly) ensureDraft();
  $("k-title").textContent = `${state.book.players.join(", ")} \u00b7 ${state.variant}`;
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

// ------------------------------------------------------------------ pages

function start(made) {
  ui.store = { key: made.key, state: made, queue: [], draft: null };
  ui.code = made.code;
  save();
  remember(made.code, made.book.players);
  location.hash = `#book=${made.code}`;
}

function showHome() {
  $("k-home").hidden = false;
  $("k-book").hidden = true;
  $("k-title").textContent = "";
  $("k-sync").textContent = "";
  const list = $("k-books");
  list.replaceChildren();
  const saved = books();
  if (!saved.length) list.append(el("p", "k-muted", "None yet."));
  saved.forEach((item) => {
    const link = el("a", "", `${item.names.join(", ")} \u00b7 ${item.when}`);
    link.href = `/keep#book=${item.code}`;
    list.append(link);
  });
  buttonChoices();
}

function buttonChoices() {
  const form = $("k-new");
  const names = [0, 1, 2, 3].map((i) => form[`p${i}`].value.trim()).filter(Boolean);
  const select = form.button;
  const chosen = select.value;
  select.replaceChildren(...names.map((name) => { const o = el("option", "", name); o.value = name; return o; }));
  if (names.includes(chosen)) select.value = chosen;
}

async function createBook(event) {
  event.preventDefault();
  const form = $("k-new");
  const settings = {};
  if (form.point_value.value.trim()) settings.point_value = form.point_value.value.trim();
  if (form.loss_limit.value.trim()) settings.loss_limit = form.loss_limit.value.trim();
  for (const item of form.more.value.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [name, ...rest] = item.split("=");
    settings[name.trim()] = rest.join("=").trim();
  }
  const players = [0, 1, 2, 3].map((i) => form[`p${i}`].value.trim()).filter(Boolean);
  try {
    start(await api("POST", "/api/keep", { players, preset: form.preset.value, settings, button: form.button.value || null }));
  } catch (error) {
    $("k-new-error").textContent = error.status ? error.message : "The server cannot be reached: try again.";
  }
}

function showBook(code, readOnly) {
  $("k-home").hidden = true;
  $("k-book").hidden = false;
  ui.code = code;
  const stored = JSON.parse(localStorage.getItem(`ofc-keep-${code}`) || "null");
  ui.readOnly = readOnly || !stored;
  ui.store = ui.readOnly ? null : stored;
  ui.shown = null;
  clearInterval(ui.poll);
  if (ui.store) { render(); flush(); }
  refresh();
  if (ui.readOnly) ui.poll = setInterval(refresh, 4000);
}

function route() {
  const match = /^#(book|view)=([\w-]+)/.exec(location.hash);
  if (match) showBook(match[2], match[1] === "view");
  else { clearInterval(ui.poll); showHome(); }
}

function wire() {
  $("k-new").addEventListener("submit", createBook);
  $("k-new").addEventListener("input", buttonChoices);
  $("k-use").addEventListener("click", () => {
    const draft = ui.store.draft;
    try {
      draft.players[ui.active] = parseTyped($("k-text").value, ui.active);
      draft.error = null;
      $("k-text").value = "";
      advance();
    } catch (error) { draft.error = { message: error.message, field: ui.active }; }
    save();
    render();
  });
  $("k-text").addEventListener("keydown", (event) => { if (event.key === "Enter") $("k-use").click(); });
  $("k-dead").addEventListener("click", () => {
    const entry = activeEntry();
    ui.store.draft.players[ui.active] = { ...emptyEntry(), dead: !entry.dead };
    if (!entry.dead) advance();
    save();
    render();
  });
  $("k-clear").addEventListener("click", () => { ui.store.draft.players[ui.active] = emptyEntry(); save(); render(); });
  $("k-save").addEventListener("click", saveDraft);
  $("k-cancel").addEventListener("click", () => {
    ui.store.draft = ui.store.parked || null;
    ui.store.parked = null;
    ui.store.blocked = false;
    save();
    render();
    flush();
  });
  $("k-copy").addEventListener("click", async () => {
    const link = $("k-link");
    try { await navigator.clipboard.writeText(link.value); } catch { link.select(); document.execCommand("copy"); }
    $("k-copy").textContent = "Copied";
  });
  window.addEventListener("online", () => { if (ui.store && !ui.readOnly) flush(); });
  window.addEventListener("hashchange", route);
}

wire();
route();
