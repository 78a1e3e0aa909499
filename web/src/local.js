// The in-page host of the browser build (web/dist): the game runs in this page, in Pyodide,
// and the client (app.js and its modules) talks to it through a transport exactly as it talks
// to `shock-rules serve` over a WebSocket. This module defines window.shockHost, which the
// lobby's "Create table" form calls; the page loads it before app.js (module scripts run in
// document order).
//
// Everything is loaded from this page's own origin: the Pyodide runtime, then the wheels listed
// in wheels.json (this package and its dependencies), unpacked straight into site-packages
// (no micropip, no package index), then host.py, the Python side of the host.
//
// Query parameters: ?bot-delay=SECONDS paces Shock!'s bots (default 0.6, as `shock-rules
// serve`; Melvin's bots act when they react, as fast as the lobby chose); ?selftest=SEED plays
// random_playout(GameConfig(players=4), random.Random(SEED)) (of Melvin Vs. Kronk with
// &game=melvin) and sets <body data-selftest="ok" data-scores="a,b,c,d"> (or
// data-selftest="error" data-error="...").
// @ts-check

// Checked by tsc against the client's types (web/: `npm run typecheck:client`). In web/dist
// this file lies beside the client's modules; tsc finds them through tsconfig's rootDirs.
/** @typedef {import("../types/client").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol").ErrorDocument} ErrorDocument */
/** @typedef {import("../types/client").Transport} Transport */
/** @typedef {import("../types/client").TransportHandlers} TransportHandlers */
/** @typedef {import("../types/client").LocalGame} LocalGame */
/** @typedef {import("../types/client").HostModule} HostModule */
/** @typedef {import("../types/client").PyodideLoader} PyodideLoader */
/** @typedef {import("../types/client").WheelManifest} WheelManifest */
/** @typedef {import("../types/client").ShockHost} ShockHost */
/** @typedef {import("../types/client").BotPlan} BotPlan */

import { t } from "./i18n.js";
import { client } from "./shell.js";

const params = new URLSearchParams(location.search);
const base = new URL("./", location.href).href;
const botDelay = Math.max(0, Number(params.get("bot-delay") ?? "0.6") || 0);
/**
 * What loading took, and each bot decision's time in Python (window.shockHost.stats()).
 * @type {{ started: number, steps: Record<string, number>, ready: number | null }}
 */
const timing = { started: performance.now(), steps: {}, ready: null };

/**
 * Show where loading is in the page's connection badge (the shell's own badge).
 * @param {string} text
 * @param {string} state
 */
function badge(text, state) {
  const node = document.getElementById("connection");
  // The client's words when it knows the message (the shell writes the words of data-key
  // again when the language changes).
  const key = text.startsWith("local.") ? text : "";
  if (key) text = t(key);
  if (!node) return;
  node.hidden = false;
  node.textContent = text;
  node.dataset.state = state;
  node.dataset.key = key;
}

/** @returns {Promise<HostModule>} */
async function load() {
  /**
   * @template T
   * @param {string} name
   * @param {string} label
   * @param {() => Promise<T>} work
   * @returns {Promise<T>}
   */
  const step = async (name, label, work) => {
    badge(label, "connecting");
    const began = performance.now();
    const result = await work();
    timing.steps[name] = Math.round(performance.now() - began);
    return result;
  };
  const pyodide = await step("python", "local.python", async () => {
    // An import by address: tsc cannot see the module, client.d.ts says what it has.
    const { loadPyodide } = /** @type {PyodideLoader} */ (await import(new URL("pyodide.mjs", base).href));
    // indexURL: the runtime files; packageBaseUrl: where a package named in the lock file
    // would come from (the lock lists none, and this keeps even that on this origin).
    return loadPyodide({ indexURL: base, packageBaseUrl: base, packages: [] });
  });
  await step("wheels", "local.wheels", async () => {
    /** @type {WheelManifest} */
    const manifest = await fetchOk(new URL("wheels.json", base), {}).then((r) => r.json());
    const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
    const files = await Promise.all(manifest.wheels.map(async (wheel) => {
      // The browser checks each file against the hash the build wrote.
      const answer = await fetchOk(new URL(wheel.file, base), { integrity: wheel.integrity });
      return answer.arrayBuffer();
    }));
    for (const buffer of files) pyodide.unpackArchive(buffer, "wheel", { extractDir: site });
    const hostText = await fetchOk(new URL("host.py", base), {}).then((r) => r.text());
    pyodide.FS.writeFile(`${site}/shock_web_host.py`, hostText);
  });
  const host = await step("engine", "local.engine", async () => {
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
    return pyodide.pyimport("shock_web_host");
  });
  timing.ready = Math.round(performance.now() - timing.started);
  return host;
}

/**
 * @param {URL} url
 * @param {RequestInit} options
 * @returns {Promise<Response>}
 */
async function fetchOk(url, options) {
  const answer = await fetch(url, options);
  if (!answer.ok) throw new Error(`${url.pathname}: HTTP ${answer.status}`);
  return answer;
}

// Loading starts with the page, so that the engine is usually ready by the time the person
// has chosen the seats.
const engine = load();
engine.then(
  () => {
    const node = document.getElementById("connection");
    // Only while the lobby shows: a table's own status is the shell's to show.
    if (node && node.dataset.state === "connecting" && !client.table) {
      badge("local.ready", "ready");
    }
  },
  (exc) => {
    console.error(exc);
    badge("local.failed", "closed");
  },
);

/** Return the transport of one table in this page: the shell sends action messages, and gets
 * the same view frames and error documents the server's WebSocket would send.
 * @param {LocalGame} game
 * @returns {Transport}
 */
function localTransport(game) {
  /** @type {TransportHandlers | null} */
  let handlers = null;
  /** @type {number | null} */
  let timer = null;
  let failed = false;

  /**
   * Hand the shell a frame or an error document of host.py; return whether it was a frame (the
   * table changed).
   * @param {string | undefined} text
   * @returns {boolean}
   */
  function deliver(text) {
    if (!text) return false;
    // host.py writes only view frames and error documents (its tests check them).
    const doc = /** @type {ServerMessage} */ (JSON.parse(text));
    if (handlers) handlers.document(doc);
    return doc.type === "view";
  }

  /** @type {ErrorDocument} */
  const broken = { schema: "shock-rules/2", type: "error", code: "internal_error", message: "internal error" };

  /** @param {unknown} exc */
  function fail(exc) {
    // As on the server: a table whose host failed stops, and its details stay out of the
    // page (they go to the console).
    failed = true;
    console.error(exc);
    if (handlers) handlers.document(broken);
  }

  /** Let the bots play, each after a pause (with a little jitter, as the server does), so
   * that a person can follow; stop at a person's turn or the game's end. A real-time game's
   * bots act when they react instead (plan). */
  function pace() {
    if (game.realtime) {
      plan();
      return;
    }
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (failed || game.bot_to_act() === undefined) return;
    const delay = botDelay * 1000 * (0.75 + 0.5 * Math.random());
    timer = setTimeout(() => {
      timer = null;
      try {
        deliver(game.bot_step());
      } catch (exc) {
        fail(exc);
        return;
      }
      pace();
    }, delay);
  }

  // ---- A real-time game (Melvin Vs. Kronk, M5): after every change each bot that may act
  // decides on its view and says how fast it reacts; a timer per bot applies its action then,
  // unless the table moved on meanwhile (a change clears the timers, and the bots decide
  // again on the new view). The person's actions go through receive() as they arrive.

  /** @type {Map<number, number>} */
  const bots = new Map();
  /** @type {number | null} */
  let planning = null;

  function plan() {
    for (const id of bots.values()) clearTimeout(id);
    bots.clear();
    if (planning !== null) clearTimeout(planning);
    planning = null;
    if (failed) return;
    // After the page drew the new view: the person's view comes before the bots' thinking.
    planning = setTimeout(() => {
      planning = null;
      /** @type {BotPlan[]} */
      let plans;
      try {
        plans = JSON.parse(game.bot_plans());
      } catch (exc) {
        fail(exc);
        return;
      }
      for (const { seat, delay, step } of plans) {
        bots.set(seat, setTimeout(() => {
          bots.delete(seat);
          /** @type {string | undefined} */
          let text;
          try {
            text = game.bot_act(seat, step);
          } catch (exc) {
            fail(exc);
            return;
          }
          // undefined: the table moved on since the bot decided; it decides again (plan).
          deliver(text);
          plan();
        }, delay * 1000));
      }
    }, 0);
  }

  return {
    start(h) {
      handlers = h;
      h.status("open");
      // The shell calls an open link "connected"; here there is no link, the game is local.
      badge("local.here", "open");
      deliver(game.frame());
      pace();
    },
    send(doc) {
      const text = JSON.stringify(doc);
      if (failed) {
        setTimeout(() => handlers && handlers.document(broken), 0);
        return;
      }
      // Answered after the click's handler returns, as an answer from a server would be.
      setTimeout(() => {
        let changed = false;
        try {
          changed = deliver(game.receive(text));
        } catch (exc) {
          fail(exc);
          return;
        }
        // A refused action changes nothing: the bots' timers run on.
        if (changed) pace();
      }, 0);
    },
  };
}

/**
 * The lobby's "Create table": a game in this page, with at most one person seat.
 * @param {import("../types/client").TableRequest} body
 * @returns {Promise<import("../types/client").LocalTable>}
 */
async function create(body) {
  /** @type {HostModule} */
  let host;
  try {
    host = await engine;
  } catch (exc) {
    throw new Error(`the engine failed to load (${/** @type {Error} */ (exc).message})`);
  }
  /** @type {LocalGame | string} */
  let made;
  try {
    made = host.make_table(JSON.stringify(body));
  } catch (exc) {
    console.error(exc); // a bug: its traceback is for the console, not the lobby
    throw new Error("internal error");
  }
  if (typeof made === "string") throw new Error(made);
  if (window.shockHost) window.shockHost.game = made;
  return { table: made.id, transport: localTransport(made) };
}

/**
 * What loading took and how long the bots thought (ms).
 * @type {ShockHost["stats"]}
 */
function stats() {
  const game = window.shockHost ? window.shockHost.game : null;
  /** @type {ReturnType<ShockHost["stats"]>["thinking"]} */
  const thinking = {};
  if (game) {
    const proxy = game.thinking;
    const all = proxy.toJs({ dict_converter: Object.fromEntries });
    proxy.destroy();
    for (const [name, times] of Object.entries(all)) {
      const ms = times.map((t) => t * 1000);
      thinking[name] = {
        decisions: ms.length,
        mean: ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length),
        max: Math.max(0, ...ms),
      };
    }
  }
  return { load: { ...timing.steps, ready: timing.ready }, thinking };
}

/**
 * Play a random game of `game` ("shock" or "melvin") from `seed` and show its scores on the
 * page's body (data-selftest, data-scores), for a test to compare with CPython's.
 * @param {string} seed
 * @param {string} game
 */
async function selftest(seed, game) {
  const body = document.body;
  try {
    if (!/^-?\d{1,18}$/.test(seed)) throw new Error(`the seed must be an integer, not ${seed}`);
    if (game !== "shock" && game !== "melvin") throw new Error(`no game ${game}`);
    const host = await engine;
    body.dataset.scores = host.selftest(BigInt(seed), game);
    body.dataset.selftest = "ok";
    badge(`self-test ok: scores ${body.dataset.scores}`, "ready");
  } catch (exc) {
    const error = /** @type {{ message?: unknown }} */ (exc);
    body.dataset.error = String(error && error.message ? error.message : error);
    body.dataset.selftest = "error";
    badge("self-test failed", "closed");
  }
}

window.shockHost = { create, stats, engine, game: null };
if (params.has("selftest")) selftest(String(params.get("selftest")), params.get("game") ?? "shock");
