"""Regression: chance outcomes must belong to the game's own edition, however many editions
were used before (found by the whole-game properties with random editions; DEAL-4, DEAL-1).

The engine caches a chest deck's outcomes; the cache must not hand one edition's chest cards
to a game of another (for example through a key made from ``id()`` of an object that the
``tables_for`` cache has since dropped, whose id Python then reuses).
"""

from __future__ import annotations

import gc

import pytest

from shock_rules import Edition, GameConfig, Phase, apply, chance_outcomes, new_game
from shock_rules._rules.state import unchecked_replace


@pytest.mark.rule("DEAL-4")
@pytest.mark.rule("DEAL-1")
def test_chest_outcomes_belong_to_the_games_own_edition_after_many_editions(
        frozen_heap: None) -> None:
    base = Edition.default().to_dict()
    for i in range(300):  # far more editions than any cache of configs holds
        data = dict(base)
        data["chest"] = [{"kind": "gem", "large": i % 50, "small": i // 50, "count": 1}]
        edition = Edition.from_dict(data)
        state = new_game(GameConfig(players=3, edition=edition))
        # Only the chest deck and the tables matter for the chest outcomes.
        chest_state = unchecked_replace(state, phase=Phase.CHEST)
        (action, p), = chance_outcomes(chest_state)
        assert action.chest_card == edition.chest[0][0], f"edition {i}: listed {action}"
        assert p == 1
        apply(chest_state, action)  # and the listed outcome is legal
        gc.collect()
