"""Make the documentation's screenshot of a table, ``docs/_static/table.png``: a real server, a
person's seat against three bots played by clicking in headless Chromium until a lively
position (the person to play, cards in the trick, poisons or potions on the table).

Run from the repository's root: ``python -m tests.browser.make_screenshot [PATH]``.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from ._harness import Server, chromium
from ._page import act, choose, wait_step_after, wait_turn

ROOT = Path(__file__).resolve().parents[2]


def _lively(state: dict[str, Any]) -> bool:
    view = state["view"]
    return bool(
        state["your_turn"] and view["round"] >= 2 and len(view["trick"]) >= 2
        and any(s["poisons"] for s in view["seats"])
        and any(s["potions"] or s["on_bag"] for s in view["seats"])
        and state["withdraw"]
    )


def main(argv: list[str]) -> int:
    """Save the screenshot to ``argv[0]`` (default ``docs/_static/table.png``)."""
    target = Path(argv[0]) if argv else ROOT / "docs" / "_static" / "table.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = Server(folder)
        server.start()
        (folder / "chromium").mkdir()
        driver = chromium(folder / "chromium", 1000, 760)
        try:
            # A 1000 x 710 page, with no animation caught half-way.
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 1000, "height": 710, "deviceScaleFactor": 1, "mobile": False})
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
            for game in range(20):
                table, tokens = server.create_table(4, {1: "heuristic", 2: "mcts", 3: "random"})
                driver.get(server.link(table, tokens[0]))
                rng = random.Random(game)
                while True:
                    state = wait_turn(driver)
                    if state["phase"] == "over":
                        break
                    if _lively(state):
                        driver.save_screenshot(str(target))
                        print(f"saved {target} (table {table}, step {state['step']})")
                        return 0
                    act(driver, state, choose(state, rng, withdraw_rate=0), rng)
                    wait_step_after(driver, state["step"])
        finally:
            driver.quit()
            server.stop()
    print("no lively position found", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
