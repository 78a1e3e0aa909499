"""A client of ``shock-rules serve`` in 30 lines: it creates a table over HTTP, then plays its
one human seat over the WebSocket, choosing at random among its view's ``legal_actions``,
until the game ends (the three other seats are the server's bots). With no server at the
address it says so in one line.

    shock-rules serve &          # pip install 'shock-rules[server]'
    python examples/ws_client.py http://127.0.0.1:8000
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import urllib.error
import urllib.request

try:
    from websockets.asyncio.client import connect
except ImportError:
    sys.exit("this example needs websockets: pip install 'shock-rules[server]'")


async def main(url: str) -> None:
    body = json.dumps({"players": 4, "bots": {"1": "random", "2": "heuristic", "3": "mcts"}})
    request = urllib.request.Request(url + "/api/tables", body.encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    table = json.load(urllib.request.urlopen(request))
    seat, token = table["seats"][0]["seat"], table["seats"][0]["token"]
    ws_url = url.replace("http", "ws", 1) + f"/ws/{table['table']}/seat"
    turns, scores = 0, []
    print(f"table {table['table']}: playing seat {seat} against three bots, who take their time"
          " (the server's --bot-delay)")
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))  # the seat's, not a URL's
        async for message in ws:
            frame = json.loads(message)  # {"type": "view", "view": ..., "events": [...]}
            if frame["type"] == "error":
                print("refused:", frame["message"], file=sys.stderr)
                continue
            if frame["type"] != "view":  # how many connections hold the seat
                continue
            view = frame["view"]
            scores += [e["scores"] for e in frame["events"] if e["event"] == "GameEnded"]
            for e in frame["events"]:
                if e["event"] == "RoundStarted":
                    print(f"round {e['round']}...", flush=True)
            if view["phase"] == "over":
                print(f"table {table['table']}, seat {seat}: game over after {view['step']}"
                      f" steps; I took {turns} turns; scores {' '.join(map(str, scores[-1]))}")
                return
            if view["your_turn"]:
                action = random.choice(view["legal_actions"])  # {"notation": "play 7H", ...}
                await ws.send(json.dumps({"type": "action", "action": action,
                                          "step": view["step"]}))
                turns += 1


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    try:
        asyncio.run(main(url))
    except urllib.error.HTTPError as exc:  # a server answered, but refused
        sys.exit(f"{url} refused to create a table: {exc.code} {exc.reason}")
    except OSError as exc:  # nothing answered: no server at that address, or no such host
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        why = reason.strerror if isinstance(reason, OSError) and reason.strerror else reason
        sys.exit(f"cannot connect to {url}: {str(why).lower()}"
                 " (start `shock-rules serve` first)")
