"""The game contract: what every game of the platform gives the layers above its rules.

A game is a :class:`Game`, a frozen record of its facts and of the functions of its rules,
views, events, notation and documents, each with the same name and meaning in every game (as
OpenSpiel's ``pyspiel.Game``/``State`` or pgx's ``Env``). The records, replay, simulations, bots'
game loop, the protocol's host, pictures and environments are written once against it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import attrs

__all__ = ["Bot", "Game", "RealTimeBot"]

C = TypeVar("C")  # the configuration
S = TypeVar("S")  # the state
A = TypeVar("A")  # an action
V = TypeVar("V")  # a seat's view


@runtime_checkable
class Bot(Protocol):
    """A computer player of any game: it decides from a seat's view only.

    ``choose(view, rng)`` returns one of ``view.legal_actions``. In a turn-based game it is
    asked only when its seat must decide, and must answer; in a real-time game
    (:attr:`Game.simultaneous`) it is asked whenever its seat may act and may return ``None``
    to let the others act first. All its randomness comes from ``rng``.
    """

    #: A short name for tables and records ("random", "heuristic", "reaction"...).
    name: str

    def choose(self, view: Any, rng: random.Random) -> Any:
        """Return the action to take on ``view`` (or ``None`` to wait, in real time)."""
        ...


@runtime_checkable
class RealTimeBot(Bot, Protocol):
    """A bot of a real-time game: it also says how fast it acts (M5)."""

    def reaction(self, view: Any, rng: random.Random) -> float:
        """Return the seconds this bot takes to act on ``view``."""
        ...


@attrs.frozen(kw_only=True, repr=False)
class Game(Generic[C, S, A, V]):
    """One game of the platform: its facts, and its rules and documents as functions.

    Build the registered ones with :func:`shock_rules.games.get`. Every function takes and
    returns the game's own objects and raises the package's typed errors, as the game's module
    does (``shock_rules`` for Shock!, ``shock_rules.melvin`` for Melvin Vs. Kronk).

    >>> from shock_rules import games
    >>> melvin = games.get("melvin")
    >>> state = melvin.new_game(melvin.config(players=4))
    >>> melvin.is_chance(state), melvin.simultaneous
    (True, True)
    """

    # -- facts -----------------------------------------------------------------------------
    #: The registry's name (``"shock"``, ``"melvin"``).
    name: str
    #: The game's title.
    title: str
    #: The player counts the game takes.
    players: range
    #: Whether several seats may act at one step (a real-time game, MK-ACT-1); a turn-based
    #: game has one seat to decide at a time.
    simultaneous: bool
    #: The configuration class: ``config_type(players=n)`` makes one.
    config_type: type[C]
    #: The state class.
    state_type: type[S]
    #: The class every action of the game is an instance of.
    action_type: type[A]
    #: The class of a seat's (or a spectator's) view.
    view_type: type[V]
    #: The class every event of the game is an instance of.
    event_type: type
    #: The game's module, where everything below is documented.
    module: str

    # -- rules -----------------------------------------------------------------------------
    #: ``new_game(config)``: the state before the first chance step.
    new_game: Callable[[C], S]
    #: ``legal_actions(state, seat=None)``: every action ``apply`` accepts now (at a chance
    #: step its outcomes); with a seat, that seat's decisions only.
    legal_actions: Callable[..., tuple[A, ...]]
    #: ``seats_to_act(state)``: the seats that may decide now, in seat order (one seat in a
    #: turn-based game; none at a chance step or the end).
    seats_to_act: Callable[[S], tuple[int, ...]]
    #: ``apply(state, action, seat=None)``: the next state; ``seat`` is who acts (a seat, or
    #: ``CHANCE``), checked when given.
    apply: Callable[..., S]
    #: ``is_chance(state)``: whether chance acts next.
    is_chance: Callable[[S], bool]
    #: ``chance_outcomes(state)``: the pending chance step's outcomes and exact probabilities.
    chance_outcomes: Callable[[S], tuple[tuple[A, Fraction], ...]]
    #: ``sample_chance(state, rng)``: one outcome drawn with its probability.
    sample_chance: Callable[[S, random.Random], A]
    #: ``resolve_chance(state, rng)``: the state once chance has acted until a seat may act.
    resolve_chance: Callable[[S, random.Random], S]
    #: ``is_terminal(state)``: whether the game is over.
    is_terminal: Callable[[S], bool]
    #: ``scores(state)``: every seat's score.
    scores: Callable[[S], tuple[int, ...]]
    #: ``winners(state)``: the seats with the best score (a tie is shared).
    winners: Callable[[S], frozenset[int]]
    #: ``check_state(state)``: raise ``InvalidStateError`` if no legal play reaches it.
    check_state: Callable[[S], None]
    #: ``random_playout(config=None, rng=None, actions=None)``: a whole game at random.
    random_playout: Callable[..., S]

    # -- races (a real-time game) ----------------------------------------------------------
    #: ``contested(state)``: whether a race is on: several seats may make a claim now and the
    #: first one applied wins it (Melvin: a match shows outside an award window, M5). The
    #: protocol's host settles such races by its fairness policy
    #: (:class:`shock_rules.protocol.RaceJudge`). A turn-based game is never contested.
    contested: Callable[[S], bool] = attrs.field(default=lambda state: False)
    #: ``is_claim(action)``: whether an action is a claim in a race (Melvin: a slap): one
    #: that wins while the state is :attr:`contested`, is rate-limited by a host, and is
    #: never turned into a mistake for a seat that decided it on a contested view.
    is_claim: Callable[[A], bool] = attrs.field(default=lambda action: False)

    # -- views, events and notation ------------------------------------------------------
    #: ``view(state, seat)``: what the seat may see.
    view: Callable[[S, int], V]
    #: ``spectator_view(state)``: what anyone may see.
    spectator_view: Callable[[S], V]
    #: ``visible_events(events, seat)``: events as the seat (``None``: a spectator) may see
    #: them; a state's own ``events`` hold every secret.
    visible_events: Callable[[tuple[Any, ...], int | None], tuple[Any, ...]]
    #: ``describe_event(event)``: one event in words.
    describe_event: Callable[[Any], str]
    #: ``parse_action(text)``: the action of a notation (``str(action)`` writes it).
    parse_action: Callable[[str], A]

    # -- documents ----------------------------------------------------------------------
    #: ``config_document(config)``, ``state_document(state)``, ``action_document(action)``,
    #: ``view_document(view)``, ``events_document(events, step=None)``: the JSON documents
    #: (plain data), tags included.
    config_document: Callable[[C], dict[str, object]]
    state_document: Callable[[S], dict[str, object]]
    action_document: Callable[[A], dict[str, object]]
    view_document: Callable[[V], dict[str, object]]
    events_document: Callable[..., dict[str, object]]
    #: ``read_config(doc)``, ``read_state(doc)``, ``read_action(doc)``, ``read_view(doc)``,
    #: ``read_events(doc)``: the objects of documents (JSON text or parsed data), checked:
    #: ``InvalidStateError`` for a malformed one (``InvalidNotationError`` for an action's
    #: notation).
    read_config: Callable[[Any], C]
    read_state: Callable[[Any], S]
    read_action: Callable[[Any], A]
    read_view: Callable[[Any], V]
    read_events: Callable[[Any], tuple[Any, ...]]
    #: The names of the game's JSON Schemas, and ``schema(name)`` each one.
    schema_names: tuple[str, ...]
    schema: Callable[[str], dict[str, Any]]

    # -- records ------------------------------------------------------------------------
    #: ``config_headers(config, edition_ref=None)``: a text record's headers for the config
    #: (``Players``...); ``edition_ref`` names the file a custom edition will be read from.
    config_headers: Callable[..., tuple[tuple[str, str], ...]]
    #: ``config_from_headers(values, base_dir)``: the config of a text record's headers
    #: (name to ``(value, line)``); ``InvalidNotationError`` naming the line when wrong.
    config_from_headers: Callable[[Mapping[str, tuple[str, int]], Path | None], C]
    #: The headers ``config_from_headers`` reads.
    header_names: tuple[str, ...]
    #: ``annotate(state, action)``: a heading to print before the action when it changes
    #: (``"round 2"``) and a comment after it (``"seat 1"``), for readable records.
    annotate: Callable[[S, A], tuple[str | None, str | None]]

    # -- simulations and pictures ------------------------------------------------------
    #: What a simulation counts per seat besides wins and scores (``"withdrawals"``...).
    tallies: tuple[str, ...]
    #: ``tally(event)``: the tally an event adds one to, and the seat, or ``None``.
    tally: Callable[[Any], tuple[str, int] | None]
    #: ``picture(view)``: the view as an SVG picture.
    picture: Callable[[V], str]

    def config(self, players: int | None = None, **options: Any) -> C:
        """Return a configuration of the game: ``players`` (the game's default when
        ``None``) and the game's own options (Shock!'s ``variant``...)."""
        if players is not None:
            options["players"] = players
        return self.config_type(**options)

    def players_of(self, config: C) -> int:
        """Return the number of players of one of the game's configurations (every
        configuration class has ``players``)."""
        players: int = getattr(config, "players")  # noqa: B009 -- C is any config class
        return players

    def owns(self, obj: object) -> bool:
        """Return whether ``obj`` is one of this game's configs, states, actions, views or
        events."""
        return isinstance(obj, (self.config_type, self.state_type, self.action_type,
                                self.view_type, self.event_type))

    def __repr__(self) -> str:
        return f"<game {self.name!r}: {self.title}>"
