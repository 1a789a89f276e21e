// The lobby: the tables (open / playing / finished views), joining, creating a table.
import { listingText, showKindFields, tournamentSettings } from "./tournament.js";
import { $, el, toast } from "./util.js";
import { api } from "./net.js";
import { formatAmount, tr, trc, trn } from "./i18n.js";
import { noteLobbyWarming } from "./warming.js";

export function playerName() {
  return $("player-name").value.trim();
}

export async function showBalance() {
  const name = playerName();
  if (!name) { $("balance").textContent = ""; return; }
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}`);
    $("balance").textContent = tr("balance {amount}", { amount: formatAmount(Number(player.balance).toFixed(2)) });
  } catch (error) {
    $("balance").textContent = "";
  }
}

const KIND_WORDS = {
  you: () => tr("you"),
  person: () => tr("a friend"),
  heuristic: () => tr("{kind} bot", { kind: "heuristic" }),
  mc: () => tr("{kind} bot", { kind: "mc" }),
  random: () => tr("{kind} bot", { kind: "random" }),
};

// The seats' kind selects (a redraw in another language keeps what was chosen).
export function seatKindInputs() {
  const count = Number(document.querySelector("#create [name=seats]").value);
  const box = $("seat-kinds");
  const previous = Array.from(box.querySelectorAll("select")).map((node) => node.value);
  box.replaceChildren();
  for (let seat = 0; seat < count; seat += 1) {
    const label = el("label", "", `${tr("Seat {number}", { number: seat + 1 })} `);
    const select = el("select");
    select.name = `seat${seat}`;
    const chosen = previous[seat];
    const kinds = seat === 0 ? ["you", "person", "heuristic", "mc", "random"] : ["heuristic", "mc", "random", "person"];
    for (const kind of kinds) {
      const option = el("option", "", KIND_WORDS[kind]());
      option.value = kind;
      select.append(option);
    }
    if (chosen && kinds.includes(chosen)) select.value = chosen;
    label.append(select);
    box.append(label);
  }
}

let view = "open";
let listed = [];

export function setView(name) {
  view = name;
  for (const button of document.querySelectorAll("#lobby-views button")) {
    button.setAttribute("aria-pressed", button.dataset.view === name ? "true" : "false");
  }
  renderTables();
}

function inView(table) {
  if (view === "open") return table.status === "waiting";
  if (view === "mine") return table.seats.some((seat) => !seat.bot && seat.name === playerName() && playerName());
  return table.status === view;
}

export async function showLobby() {
  $("lobby").hidden = false;
  $("table").hidden = true;
  $("where").textContent = tr("lobby");
  document.title = tr("ofc \u2014 Open Face Chinese Poker");
  showBalance();
  try {
    const answer = await api("/api/tables");
    listed = answer.tables;
    renderTables();
    noteLobbyWarming(answer.warming);
    // while the server warms up, the lobby asks again each second until it is ready
    clearTimeout(warmingPoll);
    if (answer.warming !== undefined && answer.warming !== null) warmingPoll = setTimeout(refreshWhileWarming, 1000);
  } catch (error) {
    toast(error.message);
  }
}

let warmingPoll = null;

function refreshWhileWarming() {
  if (!$("lobby").hidden) showLobby();
}

const STATUS_WORDS = {
  waiting: () => trc("table status", "waiting"),
  playing: () => trc("table status", "playing"),
  finished: () => trc("table status", "finished"),
  damaged: () => trc("table status", "damaged"),
};

const VARIANT_WORDS = {
  classic: () => trc("variant", "classic"), turbo: () => trc("variant", "turbo"), pineapple: () => trc("variant", "pineapple"),
};

export function variantWord(variant) {
  return VARIANT_WORDS[variant] ? VARIANT_WORDS[variant]() : String(variant);
}

function emptyText() {
  if (view === "open") return tr("No open tables: create one.");
  if (view === "mine") return tr("None of the tables has your seat.");
  return view === "playing" ? tr("No tables being played.") : tr("No finished tables.");
}

// A seat in the lobby's row: open, its player (and the bot playing for them if they left), or its bot.
function seatLabel(seat) {
  if (seat.open) return tr("(open)");
  if (seat.stand_in) return `${seat.name} (${tr("left: the {bot} bot plays", { bot: seat.stand_in })})`;
  return seat.name;
}

export function renderTables() {
  const box = $("tables");
  if (!box) return;
  box.replaceChildren();
  const tables = listed.filter(inView);
  if (!tables.length) box.append(el("p", "muted", emptyText()));
  for (const table of tables.slice().reverse()) {
    const row = el("div", "table-row");
    const rules = table.rules;
    row.append(el("strong", "", table.name));
    const kind = table.kind === "tournament" ? `${listingText(table)}, ` : "";
    const seats = trn("{n} seat", "{n} seats", rules.players);
    const status = STATUS_WORDS[table.status] ? STATUS_WORDS[table.status]() : table.status;
    row.append(el("span", "muted", `${variantWord(rules.variant)}, ${kind}${seats}, ${status}`));
    row.append(el("span", "seats", table.seats.map(seatLabel).join(" \u00b7 ")));
    if (table.open_seats.length) {
      const join = el("button", "primary", tr("Join"));
      join.type = "button";
      join.addEventListener("click", () => joinTable(table.id).catch((error) => toast(error.message)));
      row.append(join);
    }
    const mine = localStorage.getItem(`ofc-seat-${table.id}`);
    const watch = el("a", "button", mine ? tr("Return") : tr("Watch"));
    watch.href = `#/table/${table.id}`;
    row.append(watch);
    box.append(row);
  }
}

// Sit down at table `id` (any open seat, or `seat`); throws a Refusal in plain words.
export async function joinTable(id, seat) {
  const name = playerName();
  if (!name) { $("player-name").focus(); throw new Error(tr("Type your name first (top right).")); }
  const body = seat === undefined ? { name } : { name, seat };
  const key = localStorage.getItem(`ofc-key-${name}`);
  if (key) body.key = key;
  rememberSeat(await api(`/api/tables/${id}/join`, body), name);
}

// Keep a seat's token (and a new name's key) in this browser, then open the table.
function rememberSeat(joined, name) {
  if (joined.player_key) localStorage.setItem(`ofc-key-${name}`, joined.player_key);
  localStorage.setItem(`ofc-seat-${joined.table}`, joined.token);
  location.hash = `#/table/${joined.table}`;
}

// A table left unnamed is named after its game and host ("Pineapple, ann"; "Pineapple, bots").
export function defaultTableName(game, host) {
  return host ? tr("{game}, {host}", { game, host }) : tr("{game}, bots", { game });
}

function formBody(data, kinds, game = "") {
  const seats = kinds.length;
  const tournament = data.get("kind") === "tournament";
  const settings = {
    hand_seconds: data.get("hand_seconds") || "120",
    time_bank_seconds: data.get("time_bank_seconds") || "0",
    fantasy: data.get("fantasy"),
  };
  if (tournament) Object.assign(settings, tournamentSettings(data));
  else settings.point_value = data.get("point_value") || "1";
  if (data.get("loss_limit") && !tournament) settings.loss_limit = data.get("loss_limit");
  return {
    name: (data.get("name") || "").trim() || defaultTableName(game, kinds.includes("you") ? playerName() : ""),
    kind: tournament ? "tournament" : "match",
    preset: data.get("preset"),
    seats,
    settings,
    bots: kinds.map((kind) => (kind === "you" || kind === "person" ? null : kind)),
    hints: data.get("hints") === "on",
  };
}

export async function createTable(event) {
  event.preventDefault();
  const data = new FormData(event.target);
  const kinds = [];
  for (let seat = 0; seat < Number(data.get("seats")); seat += 1) kinds.push(data.get(`seat${seat}`));
  $("create-error").textContent = "";
  if (kinds.includes("you") && !playerName()) {
    $("create-error").textContent = tr("Type your name first (top right).");
    return;
  }
  const preset = event.target.querySelector("[name=preset]");
  const body = formBody(data, kinds, preset.selectedOptions[0].textContent.trim());
  const name = playerName();
  if (kinds.includes("you")) {
    // created and seated in one request: a refusal (a wrong key, the balance) leaves no table
    body.sit = { name, seat: kinds.indexOf("you") };
    const key = localStorage.getItem(`ofc-key-${name}`);
    if (key) body.sit.key = key;
  }
  try {
    const table = await api("/api/tables", body);
    if (table.joined) rememberSeat(table.joined, name);
    else location.hash = `#/table/${table.id}`;
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

export function startLobby() {
  document.querySelector("#create [name=seats]").addEventListener("change", seatKindInputs);
  document.querySelector("#create [name=kind]").addEventListener("change", showKindFields);
  $("create").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", showLobby);
  for (const button of document.querySelectorAll("#lobby-views button")) {
    button.addEventListener("click", () => setView(button.dataset.view));
  }
  seatKindInputs();
}
