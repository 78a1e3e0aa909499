#!/usr/bin/env python3
"""Melvin Vs. Kronk in the browser build: from a key pressed to the new view painted.

It serves web/dist (built first when missing or stale, as the browser tests build it) on
127.0.0.1, opens it in headless Chromium (Debian's ``chromium`` and ``chromium-driver``), creates
a Melvin table of one person and reaction bots (``--speed``: their mean reaction, seconds) and
plays whole games with the keys as a quick person would: F turns up on the person's turn, Space
slaps a match, 1-9 keep a Gem card. Each key's latency is timed in the page:

- from the key's event (``KeyboardEvent.timeStamp``: when the browser got the key from the OS)
- to the view of the person's action drawn (the table's ``data-step`` changed, and the events
  say the person acted: a card turned up, a slap, a Gem card kept), and
- to that view painted: a ``requestAnimationFrame`` after the DOM change, then a message posted
  from it, which runs once the frame is painted.

Keys whose action was refused (a race lost) are counted, not timed. It prints per game and for
all games the p50 and p95 of both times, by key, with the machine and the browser.

    python benchmarks/melvin_latency.py [--games 3] [--speed 0.6] [--players 4]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402
from tests.browser._harness import chromium  # noqa: E402
from tests.browser._web import StaticSite, build  # noqa: E402

#: The page's own timing of each key: installed once the table shows.
_PROBE = r"""
const root = document.getElementById("table");
const client = window.shockClient.client;
window.latency = { done: [], refused: 0, key: null };
const mine = new Set(["CardTurnedUp", "MatchSlapped", "WrongSlap", "GemKept", "GemGiven"]);
document.addEventListener("keydown", (e) => {
  window.latency.key = { key: e.key, start: e.timeStamp, step: Number(root.dataset.step) };
}, true);
new MutationObserver(() => {
  const key = window.latency.key;
  if (!key) return;
  if (client.lastError) {  // refused: a race lost, or the table moved on
    window.latency.refused += 1;
    window.latency.key = null;
    return;
  }
  const step = Number(root.dataset.step);
  const acted = client.events.some((e) => (e.step ?? 0) > key.step && e.seat === client.view.seat
    && mine.has(e.event));
  if (step <= key.step || !acted) return;
  window.latency.key = null;
  const drawn = performance.now() - key.start;
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      window.latency.done.push({ key: key.key, drawn, painted: performance.now() - key.start });
    };
    channel.port2.postMessage(null);
  });
}).observe(root, { attributes: true, attributeFilter: ["data-step"] });  // set at every drawing
"""

_STATE = r"""
const view = window.shockClient.client.view;
const buttons = [...document.querySelectorAll("#melvin-choices button")];
return {
  phase: view ? view.phase : null,
  kinds: view ? view.legal_actions.map((a) => a.kind) : [],
  match: document.querySelectorAll("#melvin-seats .vcard.match").length > 0,
  flip: !document.getElementById("melvin-flip").disabled,
  slap: !document.getElementById("melvin-slap").disabled,
  awards: buttons.filter((b) => / award /.test(b.dataset.notation)).map((b) => b.dataset.key),
  // (a key whose answer never came is given up after 5 s: it is not timed)
  pending: window.shockClient.client.pending || (window.latency.key !== null
    && performance.now() - window.latency.key.start < 5000),
};
"""


def play_game(driver: Any, site: StaticSite, speed: float, players: int,
              rng: random.Random) -> dict[str, Any]:
    """Play one game in the page with the keys; return the page's timings."""
    driver.get(f"{site.url}index.html?game=melvin")
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    Select(driver.find_element(By.ID, "speed")).select_by_value(str(speed))
    driver.find_element(By.ID, "create").click()
    WebDriverWait(driver, 180, poll_frequency=0.1).until(lambda d: d.execute_script(
        "const v = window.shockClient.client.view; return v && v.game === 'melvin'"))
    driver.execute_script(_PROBE)
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        state = driver.execute_script(_STATE)
        if state["phase"] == "over":
            break
        key = None
        if state["pending"]:
            pass
        elif "flip" in state["kinds"] and state["flip"]:
            key = "f"
        elif state["awards"]:
            key = rng.choice(state["awards"])
        elif state["match"] and state["slap"]:
            key = " "
        if key is None:
            time.sleep(0.02)
            continue
        ActionChains(driver).send_keys(key).perform()
        time.sleep(0.05)
    else:
        raise SystemExit("a game did not end in 15 minutes")
    time.sleep(0.2)
    result: dict[str, Any] = driver.execute_script("return window.latency")
    return result


def _p(values: list[float], q: float) -> float:
    """Return the q-quantile (0-1) of ``values`` by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def _line(label: str, done: list[dict[str, Any]]) -> str:
    if not done:
        return f"{label:<10} no key timed"
    drawn = [d["drawn"] for d in done]
    painted = [d["painted"] for d in done]
    return (f"{label:<10} {len(done):4d} keys   drawn p50 {_p(drawn, .5):5.1f} ms p95"
            f" {_p(drawn, .95):5.1f} ms   painted p50 {_p(painted, .5):5.1f} ms p95"
            f" {_p(painted, .95):5.1f} ms (max {max(painted):.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=3, help="games to play (default 3)")
    ap.add_argument("--speed", type=float, default=0.6, choices=(0.35, 0.6, 0.9),
                    help="the bots' mean reaction in seconds (default 0.6)")
    ap.add_argument("--players", type=int, default=4, choices=range(3, 7))
    ap.add_argument("--seed", type=int, default=1, help="the keys' choices among Gem cards")
    args = ap.parse_args()

    site = StaticSite(build()).start()
    folder = Path(tempfile.mkdtemp(prefix="melvin-latency-"))
    driver = chromium(folder)
    rng = random.Random(args.seed)
    every: list[dict[str, Any]] = []
    medians: list[float] = []
    p95s: list[float] = []
    try:
        version = driver.capabilities.get("browserVersion", "?")
        cpu = next((line.split(":", 1)[1].strip() for line in
                    Path("/proc/cpuinfo").read_text().splitlines()
                    if line.startswith("model name")), platform.processor() or "?") \
            if Path("/proc/cpuinfo").exists() else platform.processor()
        print(f"machine: {cpu}, {os.cpu_count()} cores; Chromium {version} (headless);"
              f" {args.players} players, bots reaction:{args.speed}")
        for game in range(1, args.games + 1):
            result = play_game(driver, site, args.speed, args.players, rng)
            done = result["done"]
            every += done
            print(_line(f"game {game}", done) + f"   refused {result['refused']}")
            if done:
                medians.append(_p([d["painted"] for d in done], .5))
                p95s.append(_p([d["painted"] for d in done], .95))
        print()
        for key, name in (("f", "turn up"), (" ", "slap")):
            print(_line(name, [d for d in every if d["key"] == key]))
        print(_line("keep", [d for d in every if d["key"] not in ("f", " ")]))
        print(_line("all", every))
        if medians:
            print(f"painted, per game: p50 median {statistics.median(medians):.1f} ms (range"
                  f" {min(medians):.1f}-{max(medians):.1f}), p95 median"
                  f" {statistics.median(p95s):.1f} ms (range {min(p95s):.1f}-{max(p95s):.1f})")
    finally:
        driver.quit()
        site.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
