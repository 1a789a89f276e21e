// Waiting the server causes, shown as it ticks: the decision workers warming up (the lobby and a
// table's status: no hand is dealt, no clock runs) and a hint being worked out ("Thinking… N s").
import { $, el } from "./util.js";
import { tr } from "./i18n.js";
import { ui } from "./state.js";

// Seconds since `since` (performance.now()) added to `base` seconds, whole.
function seconds(base, since) {
  return Math.floor(Number(base) + (performance.now() - since) / 1000);
}

// The lobby's warming line ({seconds, since} or null: warm).
export const lobbyWarming = { seconds: null, since: 0 };

function lobbyLine() {
  let line = $("warming");
  if (!line) {
    line = el("p", "notice warming");
    line.id = "warming";
    line.setAttribute("role", "status");
    $("tables").before(line);
  }
  return line;
}

// The lobby's listing said how long the server has been warming (absent: warm).
export function noteLobbyWarming(warming) {
  lobbyWarming.seconds = warming === undefined || warming === null ? null : warming;
  lobbyWarming.since = performance.now();
  tickWarming();
}

// Whether the table is full and waits for the warm workers to deal its first hand.
export function tableWarming(state) {
  return state.warming !== null && state.warming !== undefined && state.table.status === "waiting"
    && !state.table.open_seats.length;
}

// The line a table waiting for the warm workers shows as its status.
export function tableWarmingText(state) {
  const count = seconds(state.warming, ui.received);
  return tr("Warming up, {seconds} s: the first hand is dealt once the bots are ready; no clock runs meanwhile.", { seconds: count });
}

// What the advice line says while a hint or the solver's answer is worked out.
export function thinkingText() {
  const count = seconds(0, ui.thinkingSince || performance.now());
  const held = Boolean(ui.state && ui.state.held);
  if (ui.thinkingSolver) {
    return held ? tr("Solving\u2026 {seconds} s: your clock is stopped meanwhile.", { seconds: count })
      : tr("Solving\u2026 {seconds} s", { seconds: count });
  }
  return held ? tr("Thinking\u2026 {seconds} s: your clock is stopped meanwhile.", { seconds: count })
    : tr("Thinking\u2026 {seconds} s", { seconds: count });
}

// Start ticking (a hint or solution asked for); `solver`: the exact solver's arrangement.
export function startThinking(solver) {
  ui.thinkingSince = performance.now();
  ui.thinkingSolver = solver;
  ui.advice = thinkingText;
}

// The answer (or a refusal) came.
export function stopThinking() {
  ui.thinkingSince = null;
}

// Every quarter second: the lobby's and the table's warming lines, the advice's seconds.
export function tickWarming() {
  if (!$("lobby").hidden) {
    const line = lobbyLine();
    const warm = lobbyWarming.seconds === null;
    line.hidden = warm;
    if (!warm) {
      line.textContent = tr("Warming up, {seconds} s: tables can be set up now; their first hands are dealt once the bots are ready.",
        { seconds: seconds(lobbyWarming.seconds, lobbyWarming.since) });
    }
  }
  const state = ui.state;
  if (!$("table").hidden && state && tableWarming(state)) {
    const text = tableWarmingText(state);
    if ($("status").textContent !== text) $("status").textContent = text;
  }
  if (ui.thinkingSince && !$("table").hidden) {
    const text = thinkingText();
    if ($("advice").textContent !== text) $("advice").textContent = text;
  }
}
