"""The TypeScript types of the protocol (web/types/protocol.d.ts), checked with Node: they are
generated from the JSON Schemas and up to date, they compile with their usage file, and real
documents of whole games are valid for ajv under the schemas and compile as their types; a
wrong document is refused by both. Skips where Node or npm is missing (CI installs them);
runs ``npm ci`` in web/ when its node_modules is missing."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

import shock_rules as sr
from shock_rules import protocol

ROOT: Final = Path(__file__).resolve().parents[2]
WEB: Final = ROOT / "web"
SCHEMAS: Final = ROOT / "src" / "shock_rules" / "protocol" / "schemas"
STATIC: Final = ROOT / "src" / "shock_rules" / "server" / "static"
#: The browser client's modules, which tsconfig.client.json checks against the types.
CLIENT: Final = (*sorted(STATIC.glob("*.js")), WEB / "src" / "local.js")
NODE: Final = shutil.which("node")
NPM: Final = shutil.which("npm")

pytestmark = [
    pytest.mark.skipif(NODE is None or NPM is None,
                       reason="the TypeScript checks need node and npm (Debian: apt-get install"
                              " nodejs npm)"),
    pytest.mark.skipif(not (WEB / "package.json").exists(), reason="needs the source tree"),
]


def run(*args: str | Path, cwd: Path = WEB,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run a command (in web/ by default) and return it, with its output, whatever its code."""
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)


def node(*args: str | Path) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return run(NODE, *args)


def tsc(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return node(WEB / "node_modules" / "typescript" / "bin" / "tsc", *args)


def jsonc(path: Path) -> Any:
    """Read a tsconfig file (JSON with whole-line // comments)."""
    return json.loads("\n".join(line for line in path.read_text("utf-8").splitlines()
                                 if not line.lstrip().startswith("//")))


def passed(result: subprocess.CompletedProcess[str]) -> str:
    """Return the output of a command that must have succeeded (else fail, showing it)."""
    assert result.returncode == 0, f"{result.args} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module", autouse=True)
def node_modules() -> None:
    """Install web/'s pinned tools, once, when they are not there yet."""
    if not (WEB / "node_modules" / "typescript").exists():
        assert NPM is not None
        passed(run(NPM, "ci", "--no-audit", "--no-fund", timeout=600))


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documents of web/scripts/documents.py, written by the package under test (the
    source tree's or an installed build's: the one this test imports)."""
    out = tmp_path_factory.mktemp("documents")
    package_root = Path(sr.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(package_root), *filter(None, [os.environ.get("PYTHONPATH")])])}
    # Views and states at every second step (npm run check takes every step): the test stays
    # fast with thousands of documents.
    result = subprocess.run([sys.executable, str(WEB / "scripts" / "documents.py"), str(out),
                             "--every", "2"], capture_output=True, text=True, env=env,
                            timeout=120, check=False)
    passed(result)
    return out


def summary(documents: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((documents / "summary.json").read_text("utf-8"))
    return data


@pytest.fixture
def bad_documents(documents: Path, tmp_path: Path) -> Iterator[Path]:
    """A folder of wrong documents: real ones with an extra property, a required one missing,
    the field of another kind of action."""
    view = json.loads((documents / "view.jsonl").read_text("utf-8").splitlines()[-1])
    extra = copy.deepcopy(view)
    extra["seats"][0]["extra"] = 1
    missing = copy.deepcopy(view)
    del missing["your_turn"]
    action = {"schema": sr.SCHEMA, "type": "action", "notation": "leader 2", "kind": "leader",
              "card": "7H"}
    (tmp_path / "view.jsonl").write_text(f"{json.dumps(extra)}\n{json.dumps(missing)}\n")
    (tmp_path / "action.jsonl").write_text(json.dumps(action) + "\n")
    yield tmp_path


# -- the generated types ----------------------------------------------------------------------


def test_the_types_are_generated_from_the_schemas_and_up_to_date() -> None:
    out = passed(node("scripts/types.mjs", "--check"))
    assert "protocol.d.ts is up to date" in out and "melvin.d.ts is up to date" in out
    # The protocol's documents, and the Melvin Vs. Kronk documents a client reads and sends.
    for file, names in (
        ("protocol.d.ts", ("ShockProtocol", "ViewDocument", "ActionDocument", "EventsDocument",
                           "ErrorDocument", "StateDocument", "RecordDocument", "ConfigDocument",
                           "Event", "SteppedEvent", "LegalAction", "Card", "Phase")),
        ("melvin.d.ts", ("MelvinProtocol", "MelvinViewDocument", "MelvinEventsDocument",
                         "MelvinActionDocument", "MelvinEvent", "MelvinAction", "MelvinPhase")),
    ):
        text = (WEB / "types" / file).read_text("utf-8")
        for name in names:
            assert f"export type {name} " in text or f"export interface {name} " in text, name
        code = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)  # the doc comments may say "any"
        assert not re.search(r"\b(any|unknown)\b", code), file


def test_a_stale_file_and_a_loose_schema_are_caught(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, schemas)
    error = json.loads((schemas / "error.json").read_text("utf-8"))
    error["properties"]["message"]["description"] = "Changed."
    (schemas / "error.json").write_text(json.dumps(error))
    stale = node("scripts/types.mjs", "--check", "--schemas", schemas)
    assert stale.returncode == 1 and "out of date" in stale.stderr, stale
    # Melvin's schemas too: a change that the generated file does not follow.
    melvin = tmp_path / "melvin"
    shutil.copytree(ROOT / "src" / "shock_rules" / "melvin" / "schemas", melvin)
    view = json.loads((melvin / "view.json").read_text("utf-8"))
    view["description"] = "Changed."
    (melvin / "view.json").write_text(json.dumps(view))
    drift = node("scripts/types.mjs", "--check", "--game", "melvin", "--schemas", melvin)
    assert drift.returncode == 1 and "melvin.d.ts is out of date" in drift.stderr, drift
    del error["additionalProperties"]
    (schemas / "error.json").write_text(json.dumps(error))
    loose = node("scripts/types.mjs", "--check", "--schemas", schemas)
    assert loose.returncode == 1 and "error.json#: an object schema that is not closed" \
        in loose.stderr, loose


def test_the_usage_file_compiles_strictly() -> None:
    # types/usage.ts narrows documents, events and legal actions, and proves with
    # @ts-expect-error that wrong documents are refused (an unused directive is an error).
    config = jsonc(WEB / "tsconfig.json")
    assert config["compilerOptions"]["strict"] is True
    passed(tsc("-p", "tsconfig.json"))
    assert (WEB / "types" / "usage.ts").read_text("utf-8").count("@ts-expect-error") >= 15


# -- the browser client -----------------------------------------------------------------------


def test_the_client_compiles_against_the_types() -> None:
    # The client's ES modules and local.js are plain JavaScript with JSDoc types: tsc checks
    # them strictly, with the DOM, against protocol.d.ts and the hand-written client.d.ts.
    options = jsonc(WEB / "tsconfig.client.json")["compilerOptions"]
    assert options["checkJs"] is options["strict"] is options["noEmit"] is True
    assert options["lib"] == ["es2022", "dom", "dom.iterable"]
    scripts = json.loads((WEB / "package.json").read_text("utf-8"))["scripts"]
    assert "npm run typecheck:client" in scripts["check"]
    assert {p.name for p in CLIENT} >= {"app.js", "shell.js", "i18n.js", "shock.js", "local.js"}
    for script in CLIENT:
        text = script.read_text("utf-8")
        assert "\n// @ts-check\n" in text, script
        # No way around the checker: no any, no directive that silences it.
        assert not re.search(r"@ts-(ignore|nocheck|expect-error)", text), script
        assert not re.search(r"\{[^}\n]*\bany\b[^}\n]*\}", text), script
    declarations = re.sub(r"/\*.*?\*/|//[^\n]*", "", (WEB / "types" / "client.d.ts").read_text(
        "utf-8"), flags=re.DOTALL)
    assert not re.search(r"\bany\b", declarations)
    listed = tsc("-p", "tsconfig.client.json", "--listFiles")
    passed(listed)
    # Every module is checked: the ones the page loads, and local.js, which lies beside them in
    # web/dist.
    checked = {Path(line).resolve() for line in listed.stdout.splitlines()}
    assert {p.resolve() for p in CLIENT} <= checked


def test_a_client_reading_what_a_view_lacks_is_refused(tmp_path: Path) -> None:
    # A copy of the client's modules, compiled alone with the client's settings: as they are,
    # they pass; with a field the ViewDocument does not have, or an event read as the wrong
    # kind, tsc refuses them.
    copies = {}
    for module in STATIC.glob("*.js"):
        copies[module.name] = module.read_text("utf-8").replace(
            "../../../../web/types/", (WEB / "types").as_posix() + "/")
    config = {"extends": (WEB / "tsconfig.client.json").as_posix(),
              "files": [(WEB / "types" / "client.d.ts").as_posix(), *sorted(copies)],
              "include": [], "compilerOptions": {"rootDirs": []}}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))
    for name, text in copies.items():
        (tmp_path / name).write_text(text, "utf-8")
    passed(tsc("-p", tmp_path))

    # Shock!'s view and events, Melvin's view.
    shock = copies["shock.js"].replace("n: view.deck_size", "n: view.deck_count", 1)
    cards = copies["shock-cards.js"].replace("gems: gems(e.banked)", "gems: gems(e.gems)", 1)
    melvin = copies["melvin.js"].replace("view.gem_deck_size", "view.gem_deck", 1)
    assert "view.deck_count" in shock and "gems(e.banked)" not in cards
    assert "view.gem_deck_size" not in melvin
    for name, text in (("shock.js", shock), ("shock-cards.js", cards), ("melvin.js", melvin)):
        (tmp_path / name).write_text(text, "utf-8")
    result = tsc("-p", tmp_path)
    assert result.returncode != 0, result
    errors = result.stdout
    assert "Property 'deck_count' does not exist on type 'ViewDocument'" in errors, errors
    assert "Property 'gems' does not exist on type 'Withdrew'" in errors, errors
    assert "Property 'gem_deck' does not exist on type 'MelvinViewDocument'" in errors, errors
    assert errors.count("error TS") == 3, errors


# -- real documents -----------------------------------------------------------------------


def test_the_games_write_every_kind_of_document(documents: Path) -> None:
    info = summary(documents)
    assert set(info["counts"]) == set(protocol.SCHEMA_NAMES) - {"common", "event"}
    assert info["counts"]["view"] > 2000 and info["counts"]["state"] > 400
    assert set(info["error_codes"]) == set(protocol.ERROR_CODES)
    assert info["players"] == [3, 4, 5]
    # Every event, action kind and phase is in some document.
    assert info["missing"] == []
    assert len(info["event_kinds"]) == 20


def test_real_documents_meet_the_schemas_in_ajv(documents: Path) -> None:
    out = passed(node("scripts/validate.mjs", documents))
    assert json.loads(out.removeprefix("valid: ")) == summary(documents)["counts"]


def test_ajv_refuses_wrong_documents(bad_documents: Path) -> None:
    result = node("scripts/validate.mjs", bad_documents)
    assert result.returncode == 1, result
    assert "3 invalid documents" in result.stderr
    assert "view/seats/0 must NOT have additional properties" in result.stderr
    assert "must have required property 'your_turn'" in result.stderr
    assert "action.jsonl:1" in result.stderr


def test_real_documents_compile_as_their_types(documents: Path) -> None:
    out = passed(node("scripts/documents-ts.mjs", documents))
    assert json.loads(out.split(" (")[0].removeprefix("typed: ")) == summary(documents)["counts"]
    passed(tsc("-p", documents))


def test_tsc_refuses_wrong_documents(bad_documents: Path) -> None:
    passed(node("scripts/documents-ts.mjs", bad_documents))
    result = tsc("-p", bad_documents)
    assert result.returncode != 0, result
    errors = result.stdout
    # Each wrong document is refused as its own type and as ShockProtocol: two errors each.
    assert errors.count("'\"extra\"' does not exist in type 'SeatView'") == 2, errors
    assert errors.count("Property 'your_turn' is missing") == 2, errors
    assert "action-1.ts(4," in errors and "action-1.ts(5," in errors, errors
