// The ofc browser client: lobby over HTTP, one table over a WebSocket (docs/protocol.md).
// Plain JavaScript modules, no build step. Everything drawn comes from the server's state message.
import {
  chipBadge, levelTag, listingText, renderTournament, showKindFields, tournamentSettings, tournamentStatus,
} from "./tournament.js";

const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const ROWS = ["top", "middle", "bottom"];
const SIZES = { top: 3, middle: 5, bottom: 5 };
const $ = (id) => document.getElementById(id);

const ui = {
  socket: null,
  tableId: null,
  token: null,
  state: null,
  received: 0,
  pending: {},      // card -> "top" | "middle" | "bottom" | "discard"
  selected: null,
  decisionKey: "",
  advice: "",
  nextId: 1,
};

// ------------------------------------------------------------------ small helpers

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardEl(text, extra) {
  const node = el("div", `card suit-${text[1]} ${extra || ""}`);
  node.dataset.card = text;
  node.setAttribute("aria-label", text);
  node.append(el("span", "rank", text[0] === "T" ? "10" : text[0]), el("span", "suit", SUITS[text[1]]));
  return node;
}

function backEl() {
  return el("div", "card back");
}

function toast(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

function playerName() {
  return $("player-name").value.trim();
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error ? data.error.message : response.statusText);
  return data;
}

function seatName(tableSeat) {
  const seat = ui.state && ui.state.table.seats[tableSeat];
  return seat ? seat.name : `seat ${tableSeat}`;
}

function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

async function showBalance() {
  const name = playerName();
  if (!name) { $("balance").textContent = ""; return; }
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}`);
    $("balance").textContent = `balance ${player.balance_value.toFixed(2)}`;
  } catch (error) {
    $("balance").textContent = "";
  }
}

// ------------------------------------------------------------------ lobby

function seatKindInputs() {
  const count = Number(document.querySelector("#create [name=seats]").value);
  const box = $("seat-kinds");
  box.replaceChildren();
  for (let seat = 0; seat < count; seat += 1) {
    const label = el("label", "", `Seat ${seat + 1} `);
    const select = el("select");
    select.name = `seat${seat}`;
    const kinds = seat === 0 ? ["you", "person", "heuristic", "mc", "random"] : ["heuristic", "mc", "random", "person"];
    for (const kind of kinds) {
      const option = el("option", "", kind === "you" ? "you" : kind === "person" ? "a friend" : `${kind} bot`);
      option.value = kind;
      select.append(option);
    }
    label.append(select);
    box.append(label);
  }
}

async function showLobby() {
  closeSocket();
  $("lobby").hidden = false;
  $("table").hidden = true;
  $("where").textContent = "lobby";
  showBalance();
  try {
    const { tables } = await api("/api/tables");
    renderTables(tables);
  } catch (error) {
    toast(error.message);
  }
}

function renderTables(tables) {
  const box = $("tables");
  box.replaceChildren();
  if (!tables.length) box.append(el("p", "muted", "No tables yet: create one."));
  for (const table of tables.slice().reverse()) {
    const row = el("div", "table-row");
    const rules = table.rules;
    row.append(el("strong", "", table.name));
    const kind = table.kind === "tournament" ? `${listingText(table)}, ` : "";
    row.append(el("span", "muted", `${rules.variant}, ${kind}${rules.players} seats, ${table.status}`));
    row.append(el("span", "seats", table.seats.map((s) => (s.open ? "(open)" : s.name)).join(" \u00b7 ")));
    if (table.open_seats.length) {
      const join = el("button", "primary", "Join");
      join.type = "button";
      join.addEventListener("click", () => joinTable(table.id));
      row.append(join);
    }
    const mine = localStorage.getItem(`ofc-seat-${table.id}`);
    const watch = el("a", "button", mine ? "Return" : "Watch");
    watch.href = `#/table/${table.id}`;
    row.append(watch);
    box.append(row);
  }
}

async function joinTable(id, seat) {
  const name = playerName();
  if (!name) { toast("Type your name first (top right)."); $("player-name").focus(); return; }
  try {
    const body = seat === undefined ? { name } : { name, seat };
    const key = localStorage.getItem(`ofc-key-${name}`);
    if (key) body.key = key;
    const joined = await api(`/api/tables/${id}/join`, body);
    if (joined.player_key) localStorage.setItem(`ofc-key-${name}`, joined.player_key);
    localStorage.setItem(`ofc-seat-${id}`, joined.token);
    location.hash = `#/table/${id}`;
  } catch (error) {
    toast(error.message);
  }
}

async function createTable(event) {
  event.preventDefault();
  const form = event.target;
  const data = new FormData(form);
  const seats = Number(data.get("seats"));
  const kinds = [];
  for (let seat = 0; seat < seats; seat += 1) kinds.push(data.get(`seat${seat}`));
  const tournament = data.get("kind") === "tournament";
  const settings = {
    hand_seconds: data.get("hand_seconds") || "120",
    time_bank_seconds: data.get("time_bank_seconds") || "0",
    fantasy: data.get("fantasy"),
  };
  if (tournament) Object.assign(settings, tournamentSettings(data));
  else settings.point_value = data.get("point_value") || "1";
  if (data.get("loss_limit") && !tournament) settings.loss_limit = data.get("loss_limit");
  const body = {
    name: data.get("name") || "table",
    kind: tournament ? "tournament" : "match",
    preset: data.get("preset"),
    seats,
    settings,
    bots: kinds.map((kind) => (kind === "you" || kind === "person" ? null : kind)),
  };
  $("create-error").textContent = "";
  if (kinds.includes("you") && !playerName()) {
    $("create-error").textContent = "Type your name first (top right).";
    return;
  }
  try {
    const table = await api("/api/tables", body);
    if (kinds.includes("you")) await joinTable(table.id, kinds.indexOf("you"));
    else location.hash = `#/table/${table.id}`;
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

// ------------------------------------------------------------------ table connection

function closeSocket() {
  if (ui.socket) {
    ui.socket.onclose = null;
    ui.socket.close();
  }
  ui.socket = null;
}

function openTable(id) {
  closeSocket();
  ui.tableId = id;
  ui.token = localStorage.getItem(`ofc-seat-${id}`);
  ui.state = null;
  ui.pending = {};
  ui.selected = null;
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("where").textContent = `table ${id}`;
  showBalance();
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${ui.tableId}`);
  ui.socket = socket;
  socket.onopen = () => send({ type: "hello", token: ui.token });
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("status").textContent = "Connection lost; reconnecting\u2026";
    setTimeout(() => { if (ui.socket === socket) connect(); }, 1000);
  };
}

function send(message) {
  if (ui.socket && ui.socket.readyState === WebSocket.OPEN) {
    ui.socket.send(JSON.stringify({ ...message, id: ui.nextId++ }));
  }
}

function receive(message) {
  switch (message.type) {
    case "state":
      if (message.finished && !(ui.state && ui.state.finished)) showBalance();
      ui.state = message;
      ui.received = performance.now();
      keepDecision();
      render();
      break;
    case "welcome":
      if (message.seat === null && ui.token) toast("This seat token is no longer valid; watching.");
      break;
    case "ack":
      ui.pending = {};
      ui.selected = null;
      ui.advice = "";
      break;
    case "hint":
      ui.advice = message.value === null ? "The bot's choice: confirm to play it."
        : `mc bot: ${message.value >= 0 ? "+" : ""}${message.value.toFixed(2)} points expected. Confirm to play it.`;
      usePlan(message.action);
      break;
    case "solution":
      ui.advice = "The solver's arrangement: confirm to play it.";
      usePlan(message.action);
      break;
    case "error":
      if (message.code === "bad_token") { ui.token = null; }
      ui.advice = "";
      toast(message.message);
      render();
      break;
    default:
      break;
  }
}

// ------------------------------------------------------------------ deciding

function myTurn() {
  return ui.state && ui.state.discard_due !== null && ui.state.discard_due !== undefined;
}

function keepDecision() {
  const hand = ui.state.hand;
  const key = hand ? `${ui.state.hand_number}/${hand.street}/${hand.cards.join(",")}` : "";
  if (key !== ui.decisionKey) {
    ui.decisionKey = key;
    ui.pending = {};
    ui.selected = null;
    ui.advice = "";
  }
}

function usePlan(action) {
  ui.pending = {};
  for (const [card, row] of action.place) ui.pending[card] = row;
  for (const card of action.discard) ui.pending[card] = "discard";
  ui.selected = null;
  render();
}

function roomLeft(row) {
  const hand = ui.state.hand;
  const mine = hand.seats[hand.seat];
  const used = Object.values(ui.pending).filter((r) => r === row).length;
  return SIZES[row] - mine[row].length - used;
}

function assign(card, target) {
  if (!myTurn() || !ui.state.hand.cards.includes(card)) return;
  if (ui.pending[card] === target) return;
  if (target === "discard") {
    const discards = Object.entries(ui.pending).filter(([c, r]) => r === "discard" && c !== card).length;
    if (discards >= ui.state.discard_due) { toast(`Discard ${ui.state.discard_due} card(s) only.`); return; }
  } else if (target !== "hand" && roomLeft(target) <= 0) {
    toast(`The ${target} row is full.`);
    return;
  }
  if (target === "hand") delete ui.pending[card];
  else ui.pending[card] = target;
  ui.selected = null;
  render();
}

function decision() {
  const cards = ui.state.hand.cards;
  const place = [];
  const discard = [];
  const loose = [];
  for (const card of cards) {
    const where = ui.pending[card];
    if (where === "discard") discard.push(card);
    else if (where) place.push([card, where]);
    else loose.push(card);
  }
  if (loose.length && loose.length + discard.length === ui.state.discard_due) discard.push(...loose);
  else if (loose.length) return null;
  return discard.length === ui.state.discard_due ? { place, discard } : null;
}

function confirm() {
  const chosen = decision();
  if (!chosen) return;
  send({ type: "act", token: ui.token, ...chosen });
}

// ------------------------------------------------------------------ drawing

function dragTarget(node, target) {
  node.addEventListener("dragover", (event) => { event.preventDefault(); node.classList.add("over"); });
  node.addEventListener("dragleave", () => node.classList.remove("over"));
  node.addEventListener("drop", (event) => {
    event.preventDefault();
    node.classList.remove("over");
    assign(event.dataTransfer.getData("text/plain"), target);
  });
  node.addEventListener("click", () => { if (ui.selected) assign(ui.selected, target); });
}

function movable(node, card) {
  node.draggable = true;
  node.classList.add("movable");
  if (ui.selected === card) node.classList.add("selected");
  node.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", card));
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    ui.selected = ui.selected === card ? null : card;
    render();
  });
}

function seatClock(seat) {
  const clock = seat.clock;
  const box = el("span", "clock");
  box.dataset.hand = clock.hand;
  box.dataset.bank = clock.bank;
  box.dataset.running = clock.running ? "1" : "";
  return box;
}

function tickClocks() {
  const elapsed = (performance.now() - ui.received) / 1000;
  for (const box of document.querySelectorAll(".clock")) {
    let hand = Number(box.dataset.hand);
    let bank = Number(box.dataset.bank);
    if (box.dataset.running) {
      const spent = elapsed;
      if (spent <= hand) hand -= spent;
      else { bank = Math.max(0, bank - (spent - hand)); hand = 0; }
    }
    box.textContent = hand > 0 ? `${clockText(hand)} +${clockText(bank)}` : `bank ${clockText(bank)}`;
    box.classList.toggle("running", Boolean(box.dataset.running));
    box.classList.toggle("low", Boolean(box.dataset.running) && hand <= 0);
  }
}

function boardEl(seat, mine) {
  const state = ui.state;
  const hand = state.hand;
  const tableSeat = state.hand_seats[seat.seat];
  const box = el("div", `board${mine ? " mine" : ""}${hand.to_act.includes(seat.seat) ? " acting" : ""}`);
  box.dataset.seat = tableSeat;
  const title = el("div", "board-title");
  title.append(el("span", "name", seatName(tableSeat)));
  if (hand.button === seat.seat) title.append(el("span", "dealer", "D"));
  const chips = chipBadge(state, tableSeat);
  if (chips) title.append(chips);
  if (seat.fantasy) title.append(el("span", "badge fantasy", `fantasy ${seat.fantasy}`));
  if (seat.done) title.append(el("span", "badge", "done"));
  else if (seat.holding && !mine) title.append(el("span", "badge", `holding ${seat.holding}`));
  title.append(seatClock(seat));
  box.append(title);
  let hidden = seat.hidden;
  for (const row of ROWS) {
    const line = el("div", "row");
    line.dataset.row = row;
    for (const card of seat[row]) line.append(cardEl(card));
    if (mine && myTurn()) {
      for (const [card, where] of Object.entries(ui.pending)) {
        if (where === row) {
          const node = cardEl(card, "pending");
          movable(node, card);
          line.append(node);
        }
      }
      dragTarget(line, row);
      line.classList.add("target");
    }
    while (line.children.length < SIZES[row]) {
      if (hidden > 0) { line.append(backEl()); hidden -= 1; } else line.append(el("div", "slot"));
    }
    box.append(line);
  }
  if (seat.discarded && !mine) box.append(el("div", "muted small", `${seat.discarded} discarded`));
  return box;
}

function statusText() {
  const state = ui.state;
  const tournament = tournamentStatus(state);
  if (state.finished) return tournament || "The match is over: the final ledger is in the match panel, the money in the balances.";
  if (state.table.status === "waiting") {
    const open = state.table.open_seats.length;
    return `Waiting for ${open} more player${open === 1 ? "" : "s"}: share this page's address.`;
  }
  const hand = state.hand;
  if (!hand) return "";
  const head = `Hand ${state.hand_number + 1}${levelTag(state)}`;
  if (hand.result) return `${tournament}${head}: showdown. Next hand in a moment\u2026`;
  if (myTurn()) {
    const due = state.discard_due;
    const place = hand.cards.length - due;
    return `${head}: your turn \u2014 place ${place}${due ? `, discard ${due}` : ""}. Click a card, then a row (or drag).`;
  }
  const waiting = hand.to_act.map((s) => seatName(state.hand_seats[s])).join(", ");
  if (hand.to_act.some((s) => hand.seats[s].fantasy > 0)) {
    // RULES.md: fantasy hands are set first, face-down, before anyone else places a card
    return `${tournament}${head}: waiting for the fantasy hand${hand.to_act.length > 1 ? "s" : ""} of ${waiting} to be set first.`;
  }
  return `${tournament}${head}: waiting for ${waiting}.`;
}

function render() {
  const state = ui.state;
  if (!state) return;
  $("status").textContent = statusText();
  const boards = $("boards");
  boards.replaceChildren();
  const myBoard = $("my-board");
  myBoard.replaceChildren();
  const hand = state.hand;
  if (hand) {
    for (const seat of hand.seats) {
      if (seat.seat === hand.seat) myBoard.append(boardEl(seat, true));
      else boards.append(boardEl(seat, false));
    }
  } else {
    for (const seat of state.table.seats) {
      const box = el("div", "board waiting", seat.open ? "" : seat.name);
      if (seat.open && state.you === null) {
        const sit = el("button", "primary", `Sit at seat ${seat.seat + 1}`);
        sit.type = "button";
        sit.addEventListener("click", () => joinTable(state.table.id, seat.seat).then(() => openTable(state.table.id)));
        box.append(sit);
      } else if (seat.open) box.textContent = "(open seat)";
      boards.append(box);
    }
  }
  renderHand();
  if (state.ledger) renderLedger();
  renderTournament(state, seatName);
  renderAfter();
  renderShowdown();
  tickClocks();
}

function renderHand() {
  const state = ui.state;
  const area = $("hand");
  area.replaceChildren();
  const acting = myTurn();
  const cards = state.hand && state.hand.seat !== null ? state.hand.cards : [];
  for (const card of cards) {
    if (acting && ui.pending[card]) continue;
    const node = cardEl(card);
    if (acting) movable(node, card);
    area.append(node);
  }
  const zone = $("discard-zone");
  zone.hidden = !(acting && state.discard_due > 0);
  const pile = zone.querySelector(".discards");
  pile.replaceChildren();
  for (const [card, where] of Object.entries(ui.pending)) {
    if (where === "discard") {
      const node = cardEl(card, "pending");
      movable(node, card);
      pile.append(node);
    }
  }
  $("me").hidden = !(state.hand && state.hand.seat !== null);
  $("play-buttons").hidden = Boolean(state.finished);
  $("confirm").disabled = !(acting && decision());
  $("hint").disabled = !acting;
  const fantasy = acting && state.hand.seats[state.hand.seat].fantasy > 0;
  $("solve").hidden = !fantasy;
  $("advice").textContent = ui.advice;
}

function seated(state) {
  return Boolean(state) && state.you !== null && state.you !== undefined && Boolean(ui.token);
}

function renderAfter() {
  const state = ui.state;
  const mine = seated(state);
  const open = state.rematch === null || state.rematch === undefined;
  $("waiting").hidden = !(mine && state.table.status === "waiting");
  $("leave").textContent = state.tournament ? "Leave seat (buy-in back)" : "Leave seat";
  $("after").hidden = !state.finished || (open && !mine);
  const what = state.tournament ? "the new tournament" : "the rematch";
  $("after-title").textContent = state.tournament ? "Tournament over" : "Match over";
  $("rematch").textContent = open ? (state.tournament ? "Play again" : "Rematch") : `${mine ? "Join" : "Watch"} ${what}`;
}

async function leaveSeat() {
  try {
    await api(`/api/tables/${ui.tableId}/leave`, { token: ui.token });
    localStorage.removeItem(`ofc-seat-${ui.tableId}`);
    location.hash = "#/";
  } catch (error) {
    toast(error.message);
  }
}

async function rematch() {
  try {
    const table = await api(`/api/tables/${ui.tableId}/rematch`, {});
    if (seated(ui.state) && !localStorage.getItem(`ofc-seat-${table.id}`)) await joinTable(table.id, ui.state.you);
    else location.hash = `#/table/${table.id}`;
  } catch (error) {
    toast(error.message);
  }
}

function renderLedger() {
  const state = ui.state;
  const grid = el("table", "ledger");
  const head = el("tr");
  for (const text of ["", "points", "money"]) head.append(el("th", "", text));
  grid.append(head);
  state.table.seats.forEach((seat, index) => {
    const line = el("tr");
    line.append(el("td", index === state.you ? "me-name" : "", seat.name));
    for (const key of ["points", "money"]) {
      const value = Number(state.ledger[key][index]);
      line.append(el("td", value > 0 ? "plus" : value < 0 ? "minus" : "", state.ledger[key][index]));
    }
    grid.append(line);
  });
  $("ledger").replaceChildren(grid);
}

function renderShowdown() {
  const state = ui.state;
  const current = state.hand && state.hand.result ? { number: state.hand_number, hand_seats: state.hand_seats, result: state.hand.result } : null;
  const shown = current || state.previous;
  $("showdown-panel").hidden = !shown;
  if (!shown) return;
  $("showdown-title").textContent = `Showdown, hand ${shown.number + 1}`;
  const box = $("showdown");
  box.replaceChildren();
  for (const player of shown.result.players) {
    const tableSeat = shown.hand_seats[player.seat];
    const block = el("div", `result${player.fouled ? " fouled" : ""}`);
    const title = el("div", "result-title");
    title.append(el("strong", "", seatName(tableSeat)));
    const points = el("span", player.points > 0 ? "plus" : player.points < 0 ? "minus" : "", `${player.points > 0 ? "+" : ""}${player.points}`);
    title.append(points);
    if (player.fouled) title.append(el("span", "badge foul", "FOULED"));
    if (player.fantasy) title.append(el("span", "badge fantasy", `fantasy next: ${player.fantasy}`));
    block.append(title);
    ROWS.forEach((row, index) => {
      const line = el("div", "result-row");
      const cards = el("span", "mini");
      for (const card of player.board[row]) cards.append(cardEl(card, "small"));
      line.append(cards, el("span", "hand-name", player.hands[index]));
      const royalty = player.royalties[row];
      if (royalty) line.append(el("span", "royalty", `+${royalty}`));
      block.append(line);
    });
    block.append(el("div", "muted small", `royalties ${player.royalties.total}`));
    box.append(block);
  }
}

// ------------------------------------------------------------------ routing and start

function route() {
  const match = location.hash.match(/^#\/table\/(\d+)/);
  if (match) openTable(Number(match[1]));
  else showLobby();
}

function start() {
  const name = $("player-name");
  name.value = localStorage.getItem("ofc-name") || "";
  name.addEventListener("change", () => { localStorage.setItem("ofc-name", name.value.trim()); showBalance(); });
  document.querySelector("#create [name=seats]").addEventListener("change", seatKindInputs);
  document.querySelector("#create [name=kind]").addEventListener("change", showKindFields);
  $("create").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", showLobby);
  $("confirm").addEventListener("click", confirm);
  $("reset").addEventListener("click", () => { ui.pending = {}; ui.selected = null; ui.advice = ""; render(); });
  $("hint").addEventListener("click", () => { ui.advice = "Thinking\u2026"; render(); send({ type: "hint", token: ui.token }); });
  $("rematch").addEventListener("click", rematch);
  $("leave").addEventListener("click", leaveSeat);
  $("solve").addEventListener("click", () => { ui.advice = "Solving\u2026"; render(); send({ type: "solve", token: ui.token }); });
  dragTarget($("hand"), "hand");
  dragTarget($("discard-zone"), "discard");
  seatKindInputs();
  window.addEventListener("hashchange", route);
  setInterval(tickClocks, 250);
  route();
}

start();
