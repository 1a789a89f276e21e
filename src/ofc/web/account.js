// Accounts that travel: show and copy this browser's player key, sign in with a key on
// another browser (the key is then kept here, so joins work as on the first browser).
import { $, el, toast } from "./util.js";
import { api } from "./net.js";
import { playerName, showBalance, showLobby } from "./lobby.js";

// The player's results per variant (GET /api/players/{name}/stats), under the key.
export async function showStats() {
  const name = playerName();
  const box = $("stats");
  box.replaceChildren();
  if (!name) return;
  let answer;
  try {
    answer = await api(`/api/players/${encodeURIComponent(name)}/stats`);
  } catch (error) {
    box.append(el("p", "muted small", "No finished hands yet."));
    return;
  }
  const variants = Object.entries(answer.variants);
  if (!variants.length) { box.append(el("p", "muted small", "No finished hands yet.")); return; }
  const grid = el("table", "ledger");
  const head = el("tr");
  for (const text of ["", "hands", "points", "money", "fouls", "fantasy"]) head.append(el("th", "", text));
  grid.append(head);
  const percent = (rate) => `${Math.round(rate * 1000) / 10}%`;
  for (const [variant, line] of variants) {
    const row = el("tr");
    for (const text of [variant, line.hands, line.points, line.money, percent(line.foul_rate), percent(line.fantasy_rate)]) {
      row.append(el("td", "", String(text)));
    }
    grid.append(row);
  }
  box.append(grid);
}

export function showKey() {
  const name = playerName();
  const key = name ? localStorage.getItem(`ofc-key-${name}`) : null;
  $("my-key").value = key || "";
  $("my-key").placeholder = name ? `no key for ${name} in this browser` : "type your name first";
  $("copy-key").disabled = !key;
  showStats();
}

async function copyKey() {
  const field = $("my-key");
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    $("key-note").textContent = "Copied: keep it somewhere safe, it is the only way to play as you elsewhere.";
  } catch (error) {
    $("key-note").textContent = "Select the key and copy it.";
  }
}

async function signIn(event) {
  event.preventDefault();
  const name = playerName();
  const key = $("signin-key").value.trim();
  if (!name) { $("key-note").textContent = "Type your name first (top right)."; $("player-name").focus(); return; }
  if (!key) { $("key-note").textContent = "Paste your player key."; return; }
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}/signin`, { key });
    localStorage.setItem(`ofc-key-${name}`, key);
    localStorage.setItem("ofc-name", name);
    $("signin-key").value = "";
    const count = player.tables.length;
    $("key-note").textContent = `Signed in as ${name}: balance ${Number(player.balance).toFixed(2)}, ${count} table${count === 1 ? "" : "s"} with your seat.`;
    showKey();
    showBalance();
    showLobby();
  } catch (error) {
    $("key-note").textContent = error.code === "bad_key" ? `That is not the player key of ${name}.` : error.message;
  }
}

export function startAccount() {
  $("copy-key").addEventListener("click", () => copyKey().catch((error) => toast(error.message)));
  $("signin").addEventListener("submit", signIn);
  $("player-name").addEventListener("change", showKey);
  showKey();
}
