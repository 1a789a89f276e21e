// The table's rules (variant, scoring, money per point, loss limit, clocks, fantasy) and a
// copyable link to share the table, in the side panel.
import { $, el } from "./util.js";
import { formatAmount, tr, trc } from "./i18n.js";
import { variantWord } from "./lobby.js";

const LABELS = [
  ["variant", () => tr("Game")],
  ["players", () => tr("Seats")],
  ["scoring", () => tr("Scoring")],
  ["point_value", () => tr("Money per point")],
  ["loss_limit", () => tr("Loss limit (points)")],
  ["hand_seconds", () => tr("Hand clock (s)")],
  ["time_bank_seconds", () => tr("Time bank (s)")],
  ["fantasy", () => tr("Fantasy")],
  ["buy_in", () => tr("Buy-in")],
  ["starting_chips", () => tr("Starting chips")],
];

const SCORING = { classic: () => trc("scoring", "classic"), american: () => trc("scoring", "american") };

function words(key, value) {
  if (value === null || value === undefined || value === "") return key === "loss_limit" ? tr("none") : "\u2014";
  if (value === true) return tr("on");
  if (value === false) return tr("off");
  if (key === "variant") return variantWord(value);
  if (key === "scoring" && SCORING[value]) return SCORING[value]();
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  if (/^-?\d+(\.\d+)?$/.test(String(value))) return formatAmount(value);
  return String(value);
}

let cache = { id: null, rules: null };

// The table's rules: the hand's copy when a hand is on, else the lobby listing's (fetched once).
async function tableRules(state) {
  if (state.hand && state.hand.rules) return state.hand.rules;
  if (cache.id === state.table.id) return cache.rules;
  cache = { id: state.table.id, rules: null };
  try {
    const response = await fetch("/api/tables");
    if (!response.ok) return null;
    const { tables } = await response.json();
    const table = tables.find((t) => t.id === state.table.id);
    cache.rules = table ? table.rules : null;
  } catch (error) { /* the panel stays empty until the next state */ }
  return cache.rules;
}

export function shareLink(tableId) {
  return `${location.origin}${location.pathname}#/table/${tableId}`;
}

export async function renderRules(state) {
  $("share-link").value = shareLink(state.table.id);
  const rules = await tableRules(state);
  const box = $("rules");
  if (!rules) { box.replaceChildren(el("p", "muted small", "")); return; }
  const list = el("dl", "rules-list");
  for (const [key, label] of LABELS) {
    if (!(key in rules) && key !== "loss_limit") continue;
    if ((key === "buy_in" || key === "starting_chips") && !state.tournament) continue;
    if ((key === "point_value" || key === "loss_limit") && state.tournament) continue;
    list.append(el("dt", "", label()), el("dd", "", words(key, rules[key])));
  }
  const hints = !(state.table.options && state.table.options.hints === false);
  list.append(el("dt", "", tr("Hints")), el("dd", "", hints ? tr("on") : tr("off: a game between people")));
  box.replaceChildren(list);
}

export async function copyShareLink() {
  const field = $("share-link");
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    $("share-copied").textContent = tr("Copied.");
  } catch (error) {
    $("share-copied").textContent = tr("Select the link and copy it.");
  }
}
