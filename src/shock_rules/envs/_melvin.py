"""Melvin Vs. Kronk for the environments: the fixed-size encoding of a seat's view, and the
fixed indexing of a seat's decisions with a *wait* index (pure Python, no framework).

:func:`encode_melvin` reads a :class:`~shock_rules.melvin.View` only -- never the full state
--, so an agent cannot learn from another seat's Gem cards, the order of the unseen Versus
cards or a deck's order (MK-INFO-1): two positions a seat cannot tell apart encode to the same
vector for that seat.

Seats are encoded *relative to the viewer*, as in Shock!'s encoding: slot 0 is the viewer,
slot 1 the next seat clockwise, and so on. Per-seat fields have ``P`` = 6 slots (the most
players); the slots past the player count stay zero. ``F`` is the edition's number of Versus
faces (12 by default). Gem kinds are in the order ``G1 G2 G3 Oculos Toalha Orcolar Amuleto``,
Penalty kinds ``Mao Olho Cartas Duas``, specials ``Oculos Toalha Orcolar Amuleto``. Bits and
one-hots are 0/1; counts are raw (not scaled); :func:`melvin_layout` gives each field's offset,
size and bounds.

==============  =====  ==============================================================
field           size   content
==============  =====  ==============================================================
players         4      one-hot: 3, 4, 5 or 6 players
seat            6      one-hot: the viewer's own (absolute) seat number
phase           8      one-hot: :class:`~shock_rules.melvin.Phase` (DEAL ... OVER)
match           1      1 when two discard tops show the same face (MK-SLAP-1)
present         P      1 for each slot that is a seat of the game
in_game         P      1 for each seat still in the game (MK-ELIM-1)
to_move         P      one-hot: the seat to turn up a card (MK-TURN-1); zero if none
tops            P x F  per seat, one-hot: the face on top of its discard pile (zero: empty)
discard_sizes   P      cards in each discard pile
draw_sizes      P      cards in each draw pile
gem_counts      P      Gem cards each seat keeps (public, M14)
gems_shown      P      1 when the viewer may see that seat's Gem cards: its own, an *Óculos
                       Geek* target's to a holder, everyone's at the end (M30)
gems            P x 7  those Gem cards, per kind; zero when hidden
penalties       P x 4  Penalty cards in force on each seat, per kind (M30)
oculos_targets  P      1 for each eliminated seat an *Óculos Geek* may take from now
award_winner    P      one-hot: the winner of the slap whose award window is open
award_taker     P      one-hot: who takes its Gem cards (the winner, or the *Orcolar* player)
award_drawn     7      the drawn Gem cards per kind, to the winner and the taker only (M30)
played          4      1 for each special played so far (a played special leaves the game)
gem_deck        1      cards in the Gem deck
penalty_deck    1      cards in the Penalty deck
end_reason      3      one-hot: why the game ended (Gem deck empty, few players, no move)
==============  =====  ==============================================================

A seat's decisions have fixed indexes, :data:`NUM_MELVIN_ACTIONS` (87) for every player count.
A target seat is written relative to the actor: ``+r`` is the seat ``r`` places clockwise
(``(seat + r) % players``, ``r`` 1 to 5); kinds are Gem kinds in the order above. Chance
outcomes are not agent actions (the environments resolve them).

=======  ==========================  ==========================================
indexes  action                      meaning
=======  ==========================  ==========================================
0        wait                        no action: let the others act (real time)
1        ``flip``                    turn up a card (MK-TURN-1)
2        ``slap``                    slap the Gem deck (MK-SLAP-2, MK-SLAP-3)
3        ``orcolar``                 play *Orcolar* (MK-SPECIAL-2)
4        ``amuleto``                 play *Amuleto Orc* (MK-SPECIAL-3)
5-11     ``award K``                 keep the one drawn card, of kind K
12-46    ``award K give +r``         ``12 + 5 * K + r - 1``: keep K, give the other
47-51    ``toalha +r``               ``47 + r - 1``: play *Toalha* on seat +r
52-86    ``oculos +r K``             ``52 + 7 * (r - 1) + K``: take a K from seat +r
=======  ==========================  ==========================================

>>> import random
>>> from shock_rules import melvin
>>> s = melvin.resolve_chance(melvin.new_game(melvin.GameConfig(players=4)), random.Random(3))
>>> v = melvin.view(s, 0)
>>> len(encode_melvin(v)) == melvin_observation_size(v.config) == 233
True
>>> [melvin_action_of(i, 0, 4) for i in (0, 1, 2)]
[None, Flip(seat=0), Slap(seat=0)]
>>> melvin_action_index(melvin.Toalha(3, target=0), players=4)
47
"""

from __future__ import annotations

import functools
from typing import Final

from .._errors import ConfigError, InvalidArgumentError, check_seat, quoted
from ..melvin import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PENALTIES,
    SPECIALS,
    Action,
    Amuleto,
    Award,
    EndReason,
    Flip,
    GameConfig,
    Oculos,
    Orcolar,
    Phase,
    Slap,
    Toalha,
    View,
    load_edition,
)
from ._encoding import EncodingError, Field, _index_of

__all__ = [
    "GEM_KINDS",
    "MELVIN_WAIT",
    "NUM_MELVIN_ACTIONS",
    "encode_melvin",
    "melvin_action_index",
    "melvin_action_mask",
    "melvin_action_of",
    "melvin_layout",
    "melvin_observation_size",
]

#: The Gem kinds, in the encoding's order: the plain cards, then the specials (MK-SETUP-2).
GEM_KINDS: Final = ("G1", "G2", "G3", *SPECIALS)
_KIND: Final = {k: i for i, k in enumerate(GEM_KINDS)}
_PENALTY: Final = {p: i for i, p in enumerate(PENALTIES)}
_SPECIAL: Final = {s: i for i, s in enumerate(SPECIALS)}
_PHASES: Final = tuple(Phase)
_PHASE: Final = {p: i for i, p in enumerate(_PHASES)}
_REASON: Final = {r: i for i, r in enumerate(EndReason)}
_SLOTS: Final = MAX_PLAYERS
_GEMS: Final = len(GEM_KINDS)
_OTHERS: Final = MAX_PLAYERS - 1  # target slots +1 ... +5

#: The index of *wait*: no action this step.
MELVIN_WAIT: Final = 0
_SIMPLE: Final[dict[type[Action], int]] = {Flip: 1, Slap: 2, Orcolar: 3, Amuleto: 4}
_AWARD_ONE: Final = 5
_AWARD_GIVE: Final = _AWARD_ONE + _GEMS
_TOALHA: Final = _AWARD_GIVE + _GEMS * _OTHERS
_OCULOS: Final = _TOALHA + _OTHERS
#: The number of decision indexes, wait included (see the module's table): 87.
NUM_MELVIN_ACTIONS: Final = _OCULOS + _OTHERS * _GEMS


def _check_config(func: str, config: object) -> GameConfig:
    if not isinstance(config, GameConfig):
        raise ConfigError(f"{func}() needs a Melvin GameConfig, not {quoted(config)}")
    return config


@functools.lru_cache(maxsize=16)
def _fields(config: GameConfig) -> tuple[tuple[Field, ...], dict[str, int], int]:
    """The layout of ``config``'s encoding, made once: its fields, their offsets by name and
    the edition's number of faces."""
    ed = load_edition(config.edition)
    cards = float(ed.faces * ed.copies)
    gems, pens = float(len(ed.gems)), float(len(ed.penalties))
    spec: list[tuple[str, int, float]] = [
        ("players", MAX_PLAYERS - MIN_PLAYERS + 1, 1.0), ("seat", _SLOTS, 1.0),
        ("phase", len(_PHASES), 1.0), ("match", 1, 1.0),
        ("present", _SLOTS, 1.0), ("in_game", _SLOTS, 1.0), ("to_move", _SLOTS, 1.0),
        ("tops", _SLOTS * ed.faces, 1.0), ("discard_sizes", _SLOTS, cards),
        ("draw_sizes", _SLOTS, cards), ("gem_counts", _SLOTS, gems),
        ("gems_shown", _SLOTS, 1.0), ("gems", _SLOTS * _GEMS, gems),
        ("penalties", _SLOTS * len(PENALTIES), pens), ("oculos_targets", _SLOTS, 1.0),
        ("award_winner", _SLOTS, 1.0), ("award_taker", _SLOTS, 1.0),
        ("award_drawn", _GEMS, 2.0), ("played", len(SPECIALS), 1.0),
        ("gem_deck", 1, gems), ("penalty_deck", 1, pens), ("end_reason", len(EndReason), 1.0),
    ]
    fields = []
    offset = 0
    for name, size, high in spec:
        fields.append(Field(name, offset, size, high))
        offset += size
    return tuple(fields), {f.name: f.offset for f in fields}, ed.faces


def melvin_layout(config: GameConfig) -> tuple[Field, ...]:
    """Return the fields of :func:`encode_melvin`'s vector for games of ``config``, in vector
    order (the size of ``tops`` and the bounds come from the config's edition). Raise
    :class:`~shock_rules.ConfigError` if ``config`` is not a Melvin
    :class:`~shock_rules.melvin.GameConfig`."""
    return _fields(_check_config("melvin_layout", config))[0]


def melvin_observation_size(config: GameConfig) -> int:
    """Return the length of :func:`encode_melvin`'s vector for games of ``config``."""
    return _fields(_check_config("melvin_observation_size", config))[0][-1].stop


def _check_view(view: object) -> View:
    if type(view) is not View:
        raise InvalidArgumentError(f"expected a melvin.View, not {type(view).__name__}")
    if view.seat is None:
        raise EncodingError("cannot encode a spectator's view: encode a seat's view")
    return view


def encode_melvin(view: View) -> list[float]:
    """Return the fixed-size vector of a seat's view (the layout in the module docstring).

    Raise :class:`~shock_rules.envs.EncodingError` for a spectator's view, and
    :class:`~shock_rules.InvalidArgumentError` (a ``TypeError``) for what is not a view.
    """
    seat = _check_view(view).seat
    assert seat is not None
    n = view.config.players
    fields, f, faces = _fields(view.config)
    v = [0.0] * fields[-1].stop
    v[f["players"] + n - MIN_PLAYERS] = 1.0
    v[f["seat"] + seat] = 1.0
    v[f["phase"] + _PHASE[view.phase]] = 1.0
    v[f["match"]] = 1.0 if view.match_shows else 0.0
    for s in range(n):
        r = (s - seat) % n  # the seat's slot, relative to the viewer
        v[f["present"] + r] = 1.0
        v[f["in_game"] + r] = 1.0 if view.in_game[s] else 0.0
        top = view.tops[s]
        if top is not None:
            v[f["tops"] + r * faces + top - 1] = 1.0
        v[f["discard_sizes"] + r] = float(view.discard_sizes[s])
        v[f["draw_sizes"] + r] = float(view.draw_sizes[s])
        v[f["gem_counts"] + r] = float(view.gem_counts[s])
        gems = view.gems[s]
        if gems is not None:  # M14, M30: shown to this viewer
            v[f["gems_shown"] + r] = 1.0
            for g in gems:
                v[f["gems"] + r * _GEMS + _KIND[g]] += 1.0
        for p in view.penalties[s]:
            v[f["penalties"] + r * len(PENALTIES) + _PENALTY[p]] += 1.0
    _one_hot(v, f["to_move"], view.to_move, seat, n)
    for t in view.oculos_targets:
        _one_hot(v, f["oculos_targets"], t, seat, n)
    _one_hot(v, f["award_winner"], view.award_winner, seat, n)
    _one_hot(v, f["award_taker"], view.award_taker, seat, n)
    for g in view.award_drawn or ():
        v[f["award_drawn"] + _KIND[g]] += 1.0
    for special in view.played:
        v[f["played"] + _SPECIAL[special]] = 1.0
    v[f["gem_deck"]] = float(view.gem_deck_size)
    v[f["penalty_deck"]] = float(view.penalty_deck_size)
    if view.end_reason is not None:
        v[f["end_reason"] + _REASON[view.end_reason]] = 1.0
    return v


def _one_hot(v: list[float], offset: int, s: int | None, seat: int, n: int) -> None:
    """Set the entry of seat ``s`` relative to the viewer ``seat`` (none when ``s`` is None)."""
    if s is not None:
        v[offset + (s - seat) % n] = 1.0


def _check_players(players: object) -> int:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidArgumentError(f"invalid players {quoted(players)}: expected 3 to 6")
    return players


def melvin_action_index(action: Action, players: int) -> int:
    """Return the fixed index of a seat's decision in a game of ``players`` (targets are
    relative to the actor; see the module's table).

    Raise :class:`~shock_rules.envs.EncodingError` for a chance outcome or an action that no
    seat of such a game can take (a seat or target past the players, a target that is the
    actor), :class:`~shock_rules.InvalidArgumentError` for what is not a Melvin action or a
    player count that is not 3 to 6.
    """
    if not isinstance(action, Action):
        raise InvalidArgumentError(f"invalid action {quoted(action)}: expected a Melvin action"
                                   " (parse text with melvin.parse_action)")
    n = _check_players(players)
    seat = action.actor
    if seat is None:
        raise EncodingError(f"invalid action {str(action)!r}: a chance outcome has no index")
    if seat >= n:
        raise EncodingError(f"invalid action {str(action)!r}: a game of {n} has seats 0-{n - 1}")
    simple = _SIMPLE.get(type(action))
    if simple is not None:
        return simple
    if isinstance(action, Award):
        if action.give is None:
            return _AWARD_ONE + _KIND[action.keep]
        return _AWARD_GIVE + _OTHERS * _KIND[action.keep] + _relative(action, action.give, n)
    if isinstance(action, Toalha):
        return _TOALHA + _relative(action, action.target, n)
    assert isinstance(action, Oculos)
    return _OCULOS + _GEMS * _relative(action, action.target, n) + _KIND[action.card]


def _relative(action: Action, target: int, n: int) -> int:
    """Return the target's place clockwise from the actor, minus 1 (0 to 4)."""
    seat = action.actor
    assert seat is not None
    if target >= n or target == seat:
        raise EncodingError(f"invalid action {str(action)!r}: no seat of a game of {n} can"
                            " take it (its target is not another seat of the game)")
    return (target - seat) % n - 1


def melvin_action_of(index: int, seat: int, players: int) -> Action | None:
    """Return ``seat``'s decision of the fixed ``index`` in a game of ``players``, or ``None``
    for :data:`MELVIN_WAIT`.

    Raise :class:`~shock_rules.envs.EncodingError` unless ``index`` is an integer 0 to
    ``NUM_MELVIN_ACTIONS - 1`` (a Python or NumPy integer, never a bool or a float) whose
    target seat is one of the game; :class:`~shock_rules.InvalidArgumentError` for a seat or
    player count that is not one of a game.
    """
    i = _index_of(index)
    if i is None or not 0 <= i < NUM_MELVIN_ACTIONS:
        raise EncodingError(f"invalid action index {quoted(index)}: expected an integer"
                            f" 0-{NUM_MELVIN_ACTIONS - 1}")
    n = _check_players(players)
    check_seat(seat, n)
    if i == MELVIN_WAIT:
        return None
    if i < _AWARD_ONE:
        return (Flip, Slap, Orcolar, Amuleto)[i - 1](seat)
    if i < _AWARD_GIVE:
        return Award(seat, GEM_KINDS[i - _AWARD_ONE])
    if i < _TOALHA:
        kind, r = divmod(i - _AWARD_GIVE, _OTHERS)
        return Award(seat, GEM_KINDS[kind], _target(i, seat, r, n))
    if i < _OCULOS:
        return Toalha(seat, _target(i, seat, i - _TOALHA, n))
    r, kind = divmod(i - _OCULOS, _GEMS)
    return Oculos(seat, _target(i, seat, r, n), GEM_KINDS[kind])


def _target(index: int, seat: int, r: int, n: int) -> int:
    """Return the seat ``r + 1`` places clockwise from ``seat``, if the game has it."""
    if r + 1 >= n:
        raise EncodingError(f"invalid action index {index}: its target is seat +{r + 1}, and a"
                            f" game of {n} has seats up to +{n - 1}")
    return (seat + r + 1) % n


def melvin_action_mask(view: View) -> list[int]:
    """Return the 0/1 mask over the :data:`NUM_MELVIN_ACTIONS` indexes of a seat's view: its
    legal decisions (``view.legal_actions``) and :data:`MELVIN_WAIT`, legal for every seat
    until the end: an eliminated seat may only wait. At the end the mask is all zero.

    Raise :class:`~shock_rules.envs.EncodingError` for a spectator's view and
    :class:`~shock_rules.InvalidArgumentError` for what is not a view.
    """
    seat = _check_view(view).seat
    assert seat is not None
    mask = [0] * NUM_MELVIN_ACTIONS
    for a in view.legal_actions:
        mask[melvin_action_index(a, view.players)] = 1
    if view.end_reason is None:
        mask[MELVIN_WAIT] = 1
    return mask
