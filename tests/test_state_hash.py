"""The state's hash is computed once and kept: equal states hash alike, derived states never
inherit their parent's hash, and pickling, copying and equality are unaffected."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys
import weakref

import attrs
import pytest

import shock_rules as sr
from shock_rules._rules.state import unchecked_replace


def _states(seed: int, count: int) -> list[sr.State]:
    rng = random.Random(seed)
    state = sr.new_game(sr.GameConfig(players=4))
    out = [state]
    while len(out) < count and not sr.is_terminal(state):
        if sr.is_chance(state):
            state = sr.apply(state, sr.sample_chance(state, rng))
        else:
            state = sr.apply(state, rng.choice(sr.legal_actions(state)))
        out.append(state)
    return out


def _fresh_hash(state: sr.State) -> int:
    # The hash of an equal state that has never been hashed.
    return hash(unchecked_replace(state))


def test_equal_states_hash_alike_and_the_hash_is_stable() -> None:
    # Two games with the same seed give equal states, built apart: equal hashes, and each
    # state's hash is the same on every call.
    for a, b in zip(_states(3, 400), _states(3, 400), strict=True):
        assert a == b and a is not b
        h = hash(a)
        assert hash(a) == h == hash(b) == hash(a)


def test_derived_states_do_not_carry_a_stale_hash() -> None:
    # Hash every state before deriving the next one from it (the engine copies the field
    # dict): the next state's hash is that of its own fields, and the dict holds fields only.
    field_names = {f.name for f in attrs.fields(sr.State)}
    rng = random.Random(5)
    state = sr.new_game(sr.GameConfig(players=3))
    seen = 0
    while not sr.is_terminal(state):
        h = hash(state)
        action = (sr.sample_chance(state, rng) if sr.is_chance(state)
                  else rng.choice(sr.legal_actions(state)))
        nxt = sr.apply(state, action)
        if not sr.COMPILED:  # the compiled build's state is native: no dict, only its fields
            assert set(nxt.__dict__) == field_names
        assert hash(nxt) == _fresh_hash(nxt)
        if nxt != state:
            assert hash(nxt) != h
            seen += 1
        state = nxt
    assert seen > 60
    # The same through the other ways of making a state.
    s = _states(8, 60)[-1]
    hash(s)
    evolved = unchecked_replace(s, supply=s.supply - 1)
    assert evolved != s and hash(evolved) == _fresh_hash(evolved) != hash(s)


def test_pickling_and_copying_keep_equality_and_hash() -> None:
    names = [f.name for f in attrs.fields(sr.State)]
    for s in _states(4, 200)[::20]:
        h = hash(s)
        for other in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s)):
            assert other == s and hash(other) == h
            assert [getattr(other, n) for n in names] == [getattr(s, n) for n in names]
            if not sr.COMPILED:  # the compiled build's state is native: no dict
                assert set(other.__dict__) == set(s.__dict__)
        # The kept hash is not written into the pickle: a hashed and an unhashed state
        # pickle to the same bytes.
        assert pickle.dumps(s) == pickle.dumps(unchecked_replace(s))


def test_a_state_unpickled_in_another_process_hashes_there_afresh() -> None:
    # Strings hash differently from one process to the next, so a hash kept across a pickle
    # would be wrong there: the other process must find the hash of an equal state it built.
    s = _states(6, 80)[-1]
    hash(s)
    code = (
        "import pickle, sys, random\n"
        "import shock_rules as sr\n"
        "s = pickle.loads(sys.stdin.buffer.read())\n"
        "rng = random.Random(6)\n"
        "t = sr.new_game(sr.GameConfig(players=4))\n"
        "for _ in range(79):\n"
        "    t = sr.apply(t, sr.sample_chance(t, rng) if sr.is_chance(t)"
        " else rng.choice(sr.legal_actions(t)))\n"
        "print(t == s, hash(t) == hash(s))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(s),
                         capture_output=True, check=True)
    assert out.stdout.split() == [b"True", b"True"]


def test_states_stay_frozen_and_weakly_referenceable_in_the_pure_build() -> None:
    s = _states(2, 30)[-1]
    hash(s)
    if sr.COMPILED:  # a native class takes no weak reference (the guide says so)
        with pytest.raises(TypeError, match="weak reference"):
            weakref.ref(s)
    else:
        assert weakref.ref(s)() is s
    for name in ("supply", "events", "_hash"):
        with pytest.raises((attrs.exceptions.FrozenInstanceError, AttributeError)):
            delattr(s, name)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        s.supply = 0  # type: ignore[misc]
    assert {s: 1}[unchecked_replace(s)] == 1


def test_equality_and_the_hash_read_every_field_but_the_tables_and_the_history() -> None:
    # A field left out of the equality key would make two different positions equal.
    s = _states(4, 120)[-1]
    other_config = sr.GameConfig(players=4, variant=sr.Variant.SIMPLIFIED)
    for f in attrs.fields(sr.State):
        value = getattr(s, f.name)
        if f.name in ("tables", "events", "step"):
            continue
        changed: object
        if isinstance(value, sr.Phase):
            changed = sr.Phase.OVER if value is not sr.Phase.OVER else sr.Phase.PLAY
        elif isinstance(value, sr.GameConfig):
            changed = other_config
        elif isinstance(value, int):
            changed = value + 1
        else:
            changed = (*value, value[0] if value else 0)
        forged = unchecked_replace(s, **{f.name: changed})
        assert forged != s and hash(forged) != hash(s), f.name
    assert s.replace(step=s.step + 1, events=()) == s
