// The WebSocket transport: how the client reaches a table of `shock-rules serve`.
//
// One UI over two ways to reach the game. A transport carries protocol documents
// (shock-rules/2) between this page and the game's host: `start(handlers)` begins, then calls
// `handlers.document(doc)` for each document received and `handlers.status(kind, detail)` as
// the link changes ("connecting", "open", "closed" while it retries, and the final "refused"
// or "missing"); `send(doc)` sends one document. This module's transport is a WebSocket to
// `shock-rules serve`; the in-browser build brings one that runs the engine in the page
// (web/src/local.js, window.shockHost).
// @ts-check
/** @typedef {import("../../../../web/types/client").ServerMessage} ServerMessage */
/** @typedef {import("../../../../web/types/client").Transport} Transport */
/** @typedef {import("../../../../web/types/client").TransportHandlers} TransportHandlers */

/**
 * Whether a message from the host is an object with a "type", as every message is: the
 * client reads the rest as the types say (the host writes what the schemas allow).
 * @param {unknown} value
 * @returns {value is ServerMessage}
 */
function isServerMessage(value) {
  return typeof value === "object" && value !== null && "type" in value && typeof value.type === "string";
}

// The reason of the server's 4401 close of a connection whose seat's link was replaced.
export const REPLACED = "the seat's link was replaced";

/**
 * Return the WebSocket transport of one table at this page's server. A seat's token goes in
 * the connection's first message (a hello), never in its URL: a URL ends in access logs.
 * @param {string} table
 * @param {string | null} token
 * @returns {Transport}
 */
export function socketTransport(table, token) {
  /** @type {WebSocket | null} */
  let socket = null;
  let retries = 0;
  /** @type {number | null} */
  let lastStep = null;
  let stopped = false;
  let seatToken = token;
  // While this page replaces the seat's link, the server's 4401 close of the old one waits
  // for the new token instead of ending the page.
  let held = false;
  /** @type {TransportHandlers | null} */
  let waiting = null;

  function url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // A seat's connection (its token in its first message, a hello) or a spectator's.
    const path = `/ws/${encodeURIComponent(table)}${seatToken !== null ? "/seat" : ""}`;
    const base = `${scheme}//${location.host}${path}`;
    // Tell the server the last step this page saw, so it may send only what was missed.
    return lastStep !== null ? `${base}?since=${lastStep}` : base;
  }

  /** @param {TransportHandlers} handlers */
  function open(handlers) {
    if (stopped) return;
    handlers.status("connecting");
    const used = seatToken;
    const current = new WebSocket(url());
    socket = current;
    current.addEventListener("open", () => {
      retries = 0;
      if (used !== null) current.send(JSON.stringify({ type: "hello", token: used }));
      handlers.status("open");
    });
    current.addEventListener("message", (/** @type {MessageEvent<string>} */ message) => {
      /** @type {unknown} */
      let doc;
      try {
        doc = JSON.parse(message.data);
      } catch {
        return;
      }
      // A real-time table measures each seat's round trip (docs/protocol.md, "Real time"): a
      // ping is answered at once, here, before anything else the page does with a message.
      const ping = /** @type {{ type?: unknown, id?: unknown } | null} */ (doc);
      if (ping !== null && typeof ping === "object" && ping.type === "ping"
          && typeof ping.id === "string") {
        current.send(JSON.stringify({ type: "pong", id: ping.id }));
        return;
      }
      // The client ignores anything else (receive() did so before this check).
      if (!isServerMessage(doc)) return;
      if (doc.type === "view" && "view" in doc && doc.view) lastStep = doc.view.step;
      handlers.document(doc);
    });
    current.addEventListener("close", (event) => {
      if (socket !== current) return;
      socket = null;
      if (event.code === 4401 && used !== seatToken) {
        open(handlers); // this page replaced the seat's link: back with the new token
        return;
      }
      if (event.code === 4401 && held) {
        waiting = handlers;
        handlers.status("connecting");
        return;
      }
      if (event.code === 4401 || event.code === 4403) {
        stopped = true;
        handlers.status("refused", event.reason);
        return;
      }
      if (event.code === 4404) {
        stopped = true;
        handlers.status("missing");
        return;
      }
      const delay = Math.min(5000, 250 * 2 ** retries);
      retries += 1;
      // 4429: too many connections (of this address, of this seat) or opened too fast.
      handlers.status("closed", event.code === 4429 ? event.reason : undefined);
      setTimeout(() => open(handlers), delay);
    });
  }

  // A page left for another (a link, the lobby) may be kept whole by the browser for the
  // Back button, its connection still open: the seat would look open elsewhere to the next
  // page of it. Close it on the way out; a page brought back connects again.
  /** @type {TransportHandlers | null} */
  let shown = null;
  window.addEventListener("pagehide", () => {
    const current = socket;
    if (!current) return;
    socket = null;
    current.close(1000, "page left");
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && shown && !socket && !stopped) open(shown);
  });

  return {
    start(handlers) {
      shown = handlers;
      open(handlers);
    },
    send(doc) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(doc));
    },
    hold() {
      held = true;
    },
    retoken(next) {
      seatToken = next;
      held = false;
      if (waiting) {
        const handlers = waiting;
        waiting = null;
        open(handlers);
      }
    },
  };
}

