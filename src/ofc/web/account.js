// Accounts that travel: show and copy this browser's player key, sign in with a key on
// another browser (the key is then kept here, so joins work as on the first browser).
import { $, el, toast } from "./util.js";
import { api } from "./net.js";
import { playerName, showBalance, showLobby, variantWord } from "./lobby.js";
import { formatAmount, formatNumber, formatPercent, tr, trn } from "./i18n.js";

// The player's results per variant (GET /api/players/{name}/stats), under the key. The old
// table stays until the new one is ready, so the page does not jump under the pointer.
export async function showStats() {
  const name = playerName();
  const box = $("stats");
  if (!name) { box.replaceChildren(); return; }
  const none = () => box.replaceChildren(el("p", "muted small", tr("No finished hands yet.")));
  let answer;
  try {
    answer = await api(`/api/players/${encodeURIComponent(name)}/stats`);
  } catch (error) {
    none();
    return;
  }
  const variants = Object.entries(answer.variants);
  if (!variants.length) { none(); return; }
  const grid = el("table", "ledger");
  const head = el("tr");
  for (const text of ["", tr("hands"), tr("points"), tr("money"), tr("fouls"), tr("fantasy")]) head.append(el("th", "", text));
  grid.append(head);
  for (const [variant, line] of variants) {
    const row = el("tr");
    const cells = [variantWord(variant), formatNumber(line.hands), formatAmount(line.points), formatAmount(line.money)];
    for (const text of [...cells, formatPercent(line.foul_rate), formatPercent(line.fantasy_rate)]) {
      row.append(el("td", "", String(text)));
    }
    grid.append(row);
  }
  box.replaceChildren(grid);
}

export function showKey() {
  const name = playerName();
  const key = name ? localStorage.getItem(`ofc-key-${name}`) : null;
  $("my-key").value = key || "";
  $("my-key").placeholder = name ? tr("no key for {name} in this browser", { name }) : tr("type your name first");
  $("copy-key").disabled = !key;
  showStats();
}

async function copyKey() {
  const field = $("my-key");
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    $("key-note").textContent = tr("Copied: keep it somewhere safe, it is the only way to play as you elsewhere.");
  } catch (error) {
    $("key-note").textContent = tr("Select the key and copy it.");
  }
}

async function signIn(event) {
  event.preventDefault();
  const name = playerName();
  const key = $("signin-key").value.trim();
  if (!name) { $("key-note").textContent = tr("Type your name first (top right)."); $("player-name").focus(); return; }
  if (!key) { $("key-note").textContent = tr("Paste your player key."); return; }
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}/signin`, { key });
    localStorage.setItem(`ofc-key-${name}`, key);
    localStorage.setItem("ofc-name", name);
    $("signin-key").value = "";
    const count = player.tables.length;
    $("key-note").textContent = trn("Signed in as {name}: balance {amount}, {n} table with your seat.", "Signed in as {name}: balance {amount}, {n} tables with your seat.", count, { name, amount: formatAmount(Number(player.balance).toFixed(2)) });
    showKey();
    showBalance();
    showLobby();
  } catch (error) {
    $("key-note").textContent = error.code === "bad_key" ? tr("That is not the player key of {name}.", { name }) : error.message;
  }
}

export function startAccount() {
  $("copy-key").addEventListener("click", () => copyKey().catch((error) => toast(error.message)));
  $("signin").addEventListener("submit", signIn);
  $("player-name").addEventListener("change", showKey);
  showKey();
}
