// The ofc browser client's entry: wiring and routing. Lobby over HTTP (lobby.js), one table
// over a WebSocket (table.js, net.js), drawn from the server's state message (render.js),
// played by mouse, touch or keyboard (input.js). Plain ES modules, no build step.
import { $ } from "./util.js";
import { loadLanguage, tr } from "./i18n.js";
import { startPicker } from "./language-picker.js";
import { showKey, startAccount } from "./account.js";
import { bindTarget, onKey, setActions } from "./input.js";
import { renderTables, seatKindInputs, showBalance, showLobby, startLobby } from "./lobby.js";
import { copyShareLink } from "./rules-panel.js";
import { showHistory } from "./history.js";
import { dismissShowdown } from "./showdown.js";
import { tickClocks } from "./render.js";
import { tickWarming } from "./warming.js";
import { ui } from "./state.js";
import {
  askHint, askSolver, closeTable, confirmPlay, leaveMatch, leaveSeat, openTable, redraw, rematch, resetPlay, takeOffer,
} from "./table.js";

function route() {
  const match = location.hash.match(/^#\/table\/(\d+)/);
  if (match) openTable(Number(match[1]));
  else { closeTable(); showLobby(); showKey(); }
}

// Names of the drop targets that stay (the rows' are drawn with each board).
function targetLabels() {
  $("hand").setAttribute("aria-label", tr("your cards"));
  $("discard-zone").setAttribute("aria-label", tr("discard pile (Enter or d: discard the selected card)"));
}

// After the picker switched language: draw what is on screen again in it.
function redrawAll() {
  targetLabels();
  if (!$("table").hidden) {
    $("where").textContent = tr("table {number}", { number: ui.tableId });
    if (ui.state) redraw();
  } else {
    seatKindInputs();
    renderTables();
    showKey();
    showBalance();
    $("where").textContent = $("lobby").hidden ? "" : tr("lobby");
    document.title = tr("ofc \u2014 Open Face Chinese Poker");
  }
}

// Wiring first (a click or a typed name is never lost), then the language, then the first view.
async function start() {
  const name = $("player-name");
  if (!name.value) name.value = localStorage.getItem("ofc-name") || "";
  name.addEventListener("change", () => { localStorage.setItem("ofc-name", name.value.trim()); showBalance(); });
  startLobby();
  startAccount();
  setActions({ redraw, confirm: confirmPlay, hint: askHint });
  $("confirm").addEventListener("click", confirmPlay);
  $("reset").addEventListener("click", resetPlay);
  $("hint").addEventListener("click", askHint);
  $("use-hint").addEventListener("click", takeOffer);
  $("solve").addEventListener("click", askSolver);
  $("rematch").addEventListener("click", rematch);
  $("leave").addEventListener("click", leaveSeat);
  $("leave-match").addEventListener("click", leaveMatch);
  $("showdown-close").addEventListener("click", dismissShowdown);
  $("share-copy").addEventListener("click", copyShareLink);
  $("show-history").addEventListener("click", showHistory);
  const order = $("row-order");
  order.checked = localStorage.getItem("ofc-row-order") === "placed";
  order.addEventListener("change", () => {
    localStorage.setItem("ofc-row-order", order.checked ? "placed" : "strength");
    if (ui.state) redraw();
  });
  const sound = $("sound");
  sound.checked = localStorage.getItem("ofc-sound") === "on";
  sound.addEventListener("change", () => localStorage.setItem("ofc-sound", sound.checked ? "on" : "off"));
  bindTarget($("hand"), "hand", tr("your cards"), false);
  bindTarget($("discard-zone"), "discard", tr("discard pile (Enter or d: discard the selected card)"));
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  setInterval(tickClocks, 250);
  setInterval(tickWarming, 250);
  await loadLanguage();
  startPicker($("language"), redrawAll);
  targetLabels();
  seatKindInputs();
  route();
}

start();
