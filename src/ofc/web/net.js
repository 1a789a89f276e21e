// The network side of the browser client: HTTP calls that check the status before reading
// the body, and the table's WebSocket with reconnection after a growing pause (backoff).
import { plainError } from "./util.js";
import { tr } from "./i18n.js";

// An HTTP refusal: `code` is the server's error code, `message` plain words for a player.
export class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new Refusal("offline", plainError("offline"));
  }
  const json = (response.headers.get("content-type") || "").includes("application/json");
  if (!response.ok) {
    const data = json ? await response.json().catch(() => null) : null;
    const problem = data && data.error ? data.error : { code: `http_${response.status}`, message: "" };
    throw new Refusal(problem.code, plainError(problem));
  }
  if (!json) throw new Refusal("bad_answer", tr("The server's answer could not be read; try again."));
  return response.json();
}

// The pause before reconnection attempt `attempt` (0, 1, ...): 0.5 s doubling up to 15 s,
// with some jitter so that many browsers do not all come back at once.
export function backoff(attempt) {
  const base = Math.min(15000, 500 * 2 ** attempt);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

// One table's socket. `handlers`: onMessage(message), onOpen(), onDown(delayMs).
export class TableSocket {
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
    this.closed = false;
    this.nextId = 1;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.tableId}`);
    this.socket = socket;
    socket.onopen = () => { this.attempt = 0; this.handlers.onOpen(); };
    socket.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      this.handlers.onMessage(message);
    };
    socket.onclose = () => {
      if (this.closed || this.socket !== socket) return;
      const delay = backoff(this.attempt);
      this.attempt += 1;
      this.handlers.onDown(delay);
      this.timer = setTimeout(() => { if (!this.closed) this.open(); }, delay);
    };
  }

  get connected() {
    return Boolean(this.socket) && this.socket.readyState === WebSocket.OPEN;
  }

  // Send a message; its id (the replies carry it back), or 0 when the socket is down.
  send(message) {
    if (!this.connected) return 0;
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ ...message, id }));
    return id;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
    }
    this.socket = null;
  }
}
