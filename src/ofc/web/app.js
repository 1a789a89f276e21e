// The ofc browser client's entry: wiring and routing. Lobby over HTTP (lobby.js), one table
// over a WebSocket (table.js, net.js), drawn from the server's state message (render.js),
// played by mouse, touch or keyboard (input.js). Plain ES modules, no build step.
import { $ } from "./util.js";
import { showKey, startAccount } from "./account.js";
import { bindTarget, onKey, setActions } from "./input.js";
import { showBalance, showLobby, startLobby } from "./lobby.js";
import { copyShareLink } from "./rules-panel.js";
import { showHistory } from "./history.js";
import { dismissShowdown } from "./showdown.js";
import { tickClocks } from "./render.js";
import { ui } from "./state.js";
import {
  askHint, askSolver, closeTable, confirmPlay, leaveSeat, openTable, redraw, rematch, resetPlay, takeOffer,
} from "./table.js";

function route() {
  const match = location.hash.match(/^#\/table\/(\d+)/);
  if (match) openTable(Number(match[1]));
  else { closeTable(); showLobby(); showKey(); }
}

function start() {
  const name = $("player-name");
  name.value = localStorage.getItem("ofc-name") || "";
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
  bindTarget($("hand"), "hand", "your cards", false);
  bindTarget($("discard-zone"), "discard", "discard pile (Enter or d: discard the selected card)");
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  setInterval(tickClocks, 250);
  route();
}

start();
