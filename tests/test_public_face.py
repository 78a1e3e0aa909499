"""What a new user meets first: public paths, the package's help, the license in the wheel."""

from __future__ import annotations

import inspect
import json
import pickle
import pydoc
import subprocess
import sys
import traceback
import zipfile
from pathlib import Path

import pytest

import shock_rules as sr
import shock_rules.bots
import shock_rules.record
from shock_rules import games, melvin, protocol

PUBLIC = {
    "shock_rules": sr,
    "shock_rules.bots": shock_rules.bots,
    "shock_rules.record": shock_rules.record,
    "shock_rules.protocol": protocol,
    "shock_rules.games": games,
    "shock_rules.melvin": melvin,
}


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_public_objects_show_a_public_module(module: str) -> None:
    mod = PUBLIC[module]
    for name in mod.__all__:
        obj = getattr(mod, name)
        # Built-in functions: those of the compiled modules in the compiled build.
        if inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj):
            assert obj.__module__ in PUBLIC, f"{module}.{name} shows {obj.__module__}"
            # The path it shows leads back to the object (tracebacks and pickling rely on it).
            assert getattr(PUBLIC[obj.__module__], obj.__qualname__) is obj


def test_a_traceback_names_the_public_error() -> None:
    state = sr.new_game(sr.GameConfig(players=3, first_leader=0))
    try:
        sr.apply(state, sr.Action.parse("play 7H"))
    except sr.IllegalActionError as exc:
        last = traceback.format_exception(exc)[-1]
    assert last.startswith("shock_rules.IllegalActionError: 'play 7H' is illegal")
    assert repr(sr.Phase.DEAL) == "<Phase.DEAL: 0>"
    assert sr.State.__module__ == "shock_rules"


def test_public_objects_pickle_under_their_public_path() -> None:
    state = sr.new_game(sr.GameConfig(players=4))
    assert pickle.loads(pickle.dumps(state)) == state
    err = pickle.loads(pickle.dumps(sr.ConfigError("players must be 3, 4 or 5")))
    assert type(err) is sr.ConfigError
    assert pickle.loads(pickle.dumps(sr.HeuristicBot())).name == "heuristic"


def test_help_opens_on_the_orientation() -> None:
    text = pydoc.render_doc(sr, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    description = text[text.index("DESCRIPTION"):]
    before_example = description[: description.index(">>>")]
    for call in ("new_game", "legal_actions", "apply", "sample_chance", "view"):
        assert f"``{call}(" in before_example, call
    assert "shock_rules.bots" in before_example and "Rules" in before_example


def test_the_wheel_ships_the_license(tmp_path: Path) -> None:
    pytest.importorskip("hatchling")
    root = Path(__file__).resolve().parents[1]
    if not (root / "pyproject.toml").exists():  # pragma: no cover - an installed package
        pytest.skip("needs the source tree")
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d",
                    str(tmp_path)], cwd=root, check=True, capture_output=True)
    (wheel,) = tmp_path.glob("shock_rules-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        license_name = next(n for n in names if n.endswith("licenses/LICENSE"))
        assert "MIT License" in z.read(license_name).decode()
        meta = z.read(next(n for n in names if n.endswith("METADATA"))).decode()
        # The protocol's JSON Schemas are package data, shipped beside their module.
        for name in protocol.SCHEMA_NAMES:
            shipped = json.loads(z.read(f"shock_rules/protocol/schemas/{name}.json"))
            assert shipped == protocol.schema(name)
        # So is the browser client that `shock-rules serve` serves.
        static = root / "src" / "shock_rules" / "server" / "static"
        for name in ("index.html", "app.js", "style.css"):
            assert z.read(f"shock_rules/server/static/{name}") == (static / name).read_bytes()
    assert f"Version: {sr.__version__}" in meta
    for minor in (11, 12, 13):
        assert f"Programming Language :: Python :: 3.{minor}" in meta
