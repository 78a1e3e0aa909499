"""Chest odds: how likely the next chest card is to shock the seat that reveals it.

What it shows: the contents of the chest deck are public (every chest card not in the
discard pile or the centre is still in the deck), so ``chest_odds(view)`` computes exactly,
as fractions, the chance that the next card is a poison, the chance that it shocks the
revealer and the expected change of the gems on its bag. The script scripts a real position
-- seat 0 wins a trick with a poison card in it and a chest card was already revealed -- and
explains the numbers.

    python examples/odds.py
"""

from __future__ import annotations

import shock_rules as sr


def main() -> None:
    config = sr.GameConfig(players=3, first_leader=0)
    state = sr.deal_hands(sr.new_game(config),
                          ["2H 3H 4H 5H 6H 7H 8H 9H 10H",
                           "2S 3S 4S 5S 6S 7S 8S 9S 10S",
                           "2D 3D 4D 5D 6D 7D 8D 9D 10D"], trump="2C")
    # Seat 0 leads 10H and wins the trick, taking the poison card 7S (one jellyfish) and the
    # gems on the cards onto its bag; then the chest
    # opens and its first card is a gem card (G2/1).
    state = sr.apply_all(state, "play 10H; play 7S; play 2D; chest G2/1")
    view = sr.view(state, 0)                     # only what seat 0 may know
    odds = sr.chest_odds(view)
    print(f"seat {odds.seat} must decide: reveal another chest card, or stop")
    print(f"gems on its bag, at risk if it is shocked: {odds.at_risk}")
    print(f"cards left in the chest deck: {odds.cards}")
    print(f"chance the next card is a poison card: {odds.poison} (= {float(odds.poison):.1%})")
    print(f"chance it shocks seat 0: {odds.shock} (= {float(odds.shock):.1%})")
    counts = ", ".join(f"{name} {n}" for name, n in odds.counts)
    print(f"its poison counts now: {counts}; a count of 2 of one type shocks (SHOCK-1)")
    print(f"expected change of its gems on the bag if it reveals: {odds.gain} "
          f"(= {float(odds.gain):+.2f})")
    advice = "reveal" if odds.gain > 0 else "stop"
    print(f"on expectation alone, seat 0 should {advice}")


if __name__ == "__main__":
    main()
