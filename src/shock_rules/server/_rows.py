"""What the server's stores keep and how, for SQLite and PostgreSQL alike: the stored values
(:class:`StoredTable`, :class:`StoredAction`), the errors every store raises, the schema
written once (:data:`TABLES`, :data:`ACTIONS`, :data:`LEASES`) and rendered per database
(:class:`Dialect`), its numbered migrations (:func:`migrate`), the statements both stores run
(:class:`Statements`) and the row codec (:func:`encode_table`, :func:`decode_table`).

Both stores import this module and nothing of each other, so the two databases cannot drift
apart: a column added here is added to both, by one migration.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, Literal, Protocol

import attrs

from ..protocol import UnavailableError
from ._lobby import ListedRow, Summary

__all__ = [
    "ACTIONS",
    "FIRST_TABLE_COLUMNS",
    "LEASES",
    "LOBBY",
    "MIGRATIONS",
    "POSTGRES",
    "RATES",
    "SCHEMA_VERSION",
    "SEATS_CHANGED",
    "SETTINGS",
    "SQLITE",
    "TABLES",
    "UNAVAILABLE",
    "VERSION",
    "BadRowError",
    "Column",
    "Dialect",
    "Relation",
    "SchemaAccess",
    "SchemaVersionError",
    "Statements",
    "StepTakenError",
    "StoreDeadlineError",
    "StoreUnavailableError",
    "StoredAction",
    "StoredTable",
    "TableExistsError",
    "decode_listed",
    "decode_seats",
    "decode_table",
    "decode_tables",
    "encode_seats",
    "encode_table",
    "group_actions",
    "migrate",
    "printable_id",
    "take_token",
    "token_hash",
    "unanswered",
]

log = logging.getLogger("shock_rules.server")

#: What a store's ``notifications`` yields as the step when a seat's token was replaced.
SEATS_CHANGED: Final = -2


def token_hash(token: str) -> str:
    """Return the hex SHA-256 of a seat's token: what the store keeps instead of the token.

    A token is 32 random bytes (``secrets.token_urlsafe``), so an unsalted fast hash is enough:
    nobody can search that space, and a copy of the database lets nobody take a seat.
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# -- the values and the errors ----------------------------------------------------------------


@attrs.frozen
class StoredAction:
    """One applied action of a table: its ``step`` (the table's step before it), the ``seat``
    that took it (``None`` for chance) and its notation."""

    step: int
    seat: int | None
    action: str


@attrs.frozen
class StoredTable:
    """A table as the store keeps it: enough to rebuild it exactly.

    ``config`` is the game's config document (JSON text), ``bots`` maps bot seats to bot
    names, ``seats`` maps human seats to their token hashes, and ``seed`` is the table's secret
    seed from which every chance outcome and bot decision is derived (see
    :func:`shock_rules.server.draw_rng`). ``active`` is the table's last activity (an action
    stored, a seat connected until then), as :func:`time.time`; ``None`` when it is unknown
    (a table stored before the store kept it): the server counts from when it loads it.
    ``listed`` is whether the lobby's list of tables (``GET /api/tables``) shows it; a table
    stored before the store kept that is listed, as new tables are by default.
    """

    id: str
    config: str
    bots: Mapping[int, str]
    seats: Mapping[int, str]
    seed: str
    created: float
    actions: tuple[StoredAction, ...] = ()
    active: float | None = None
    listed: bool = True
    #: The creator's key (a keyed hash of the address that created it: the limits per
    #: address count it across processes), or ``None`` if unknown.
    creator: str | None = None


class StepTakenError(RuntimeError):
    """The table already has an action stored at one of the steps being appended: another
    server process sharing the store took that step first. Nothing was stored."""


class TableExistsError(RuntimeError):
    """A table of that id is stored already. Nothing was stored."""


class StoreUnavailableError(UnavailableError):
    """The store cannot be reached now (its database server is down, restarting or not
    answering); nothing was stored, or, for a call cut short while its commit was under way,
    what was stored is found by reading it again. The store reconnects by itself at a later
    call."""


#: What a client is told when the store cannot be reached (the error's own message, which
#: names the database's host, stays in the server's log).
UNAVAILABLE: Final = "the database cannot be reached: try again in a moment"


class StoreDeadlineError(StoreUnavailableError):
    """A store call the server stopped waiting for: what it asked may have been done (reading
    the table again tells). Its message names no database, and is told to clients as is."""


def unanswered(seconds: float) -> StoreDeadlineError:
    """The error of a store call the server stopped waiting for after ``seconds``."""
    return StoreDeadlineError(
        f"the database did not answer within {seconds:g} s (what was asked may still be"
        " done: the next view tells)")


class SchemaVersionError(RuntimeError):
    """The database was written by a newer version of the package (or its version cannot be
    read): nothing in it was changed."""


class BadRowError(ValueError):
    """A stored table's row that cannot be read; its message names the column, never what it
    holds (the seats' column holds token hashes, the seed is secret)."""


# -- the schema -------------------------------------------------------------------------------


@attrs.frozen
class Dialect:
    """How one database spells the schema's types and a statement's parameters."""

    name: str
    text: str
    real: str
    integer: str
    flag: str
    true: str
    #: What stands for a parameter in a statement (the statements here are written with ``?``).
    parameter: str
    #: What a ``SELECT`` ends with to lock the rows it reads until the transaction ends.
    row_lock: str

    def sql(self, statement: str) -> str:
        """Return ``statement`` (written with ``?`` for its parameters) in this dialect."""
        return statement.replace("?", self.parameter)


SQLITE: Final = Dialect("SQLite", text="TEXT", real="REAL", integer="INTEGER", flag="INTEGER",
                        true="1", parameter="?", row_lock="")
POSTGRES: Final = Dialect("PostgreSQL", text="text", real="double precision", integer="integer",
                          flag="boolean", true="true", parameter="%s", row_lock=" FOR UPDATE")


@attrs.frozen
class Column:
    """A column: its name, its kind (rendered by the :class:`Dialect`), whether it may be
    empty, and for a flag whether it is true unless given."""

    name: str
    kind: Literal["text", "real", "integer", "flag"]
    required: bool = True
    default_true: bool = False

    def render(self, dialect: Dialect) -> str:
        sql = f"{self.name} {getattr(dialect, self.kind)}"
        if self.required:
            sql += " NOT NULL"
        if self.default_true:
            sql += f" DEFAULT {dialect.true}"
        return sql


@attrs.frozen
class Relation:
    """A relation: its columns, its primary key, and the column (if any) that refers to a
    stored table and goes with it when it is deleted."""

    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    of_table: str | None = None

    @property
    def names(self) -> str:
        """The column names, comma-separated, in order."""
        return ", ".join(c.name for c in self.columns)

    def create(self, dialect: Dialect) -> str:
        """The ``CREATE TABLE IF NOT EXISTS`` statement of the relation."""
        parts = [c.render(dialect) for c in self.columns]
        if self.key:
            parts.append(f"PRIMARY KEY ({', '.join(self.key)})")
        if self.of_table is not None:
            parts.append(f"FOREIGN KEY ({self.of_table}) REFERENCES tables(id)"
                         " ON DELETE CASCADE")
        body = ",\n    ".join(parts)
        return f"CREATE TABLE IF NOT EXISTS {self.name} (\n    {body}\n)"


#: The stored tables, one row each (the row codec's order: see :func:`encode_table`).
TABLES: Final = Relation("tables", (
    Column("id", "text"),
    Column("config", "text"),
    Column("bots", "text"),
    Column("seats", "text"),
    Column("seed", "text"),
    Column("created", "real"),
    Column("active", "real", required=False),
    Column("listed", "flag", default_true=True),
    Column("creator", "text", required=False),
), key=("id",))
#: What the lobby shows of a table, written by the process that plays it (version 3): its
#: summary (JSON text: round, phase, seats connected, over) and whether it is over. Not part
#: of a :class:`StoredTable`: only the lobby and the counts per creator read them.
LOBBY: Final = (Column("summary", "text", required=False),
                Column("over", "flag", required=False))
#: Token buckets every process sharing the store takes from (version 3): a limit of so many a
#: minute per client address holds across processes (``key`` names the limit and the
#: creator key; ``tokens`` were left at ``at``, :func:`time.time`).
RATES: Final = Relation("rates", (
    Column("key", "text"),
    Column("tokens", "real"),
    Column("at", "real"),
), key=("key",))
#: Settings every process sharing the store reads alike (version 3): the processes' secret.
SETTINGS: Final = Relation("settings", (
    Column("name", "text"),
    Column("value", "text"),
), key=("name",))
#: The columns of the first version: a database whose ``tables`` lacks one is another
#: program's, refused before anything in it is changed.
FIRST_TABLE_COLUMNS: Final = ("id", "config", "bots", "seats", "seed", "created")
#: The applied actions of the tables, one row each.
ACTIONS: Final = Relation("actions", (
    Column("table_id", "text"),
    Column("step", "integer"),
    Column("seat", "integer", required=False),
    Column("action", "text"),
), key=("table_id", "step"), of_table="table_id")
#: Which store process runs a table, until when (seconds since the epoch by the database's
#: clock). Only PostgreSQL's stores write it: an SQLite file has one process.
LEASES: Final = Relation("leases", (
    Column("table_id", "text"),
    Column("holder", "text"),
    Column("expires", "real"),
    Column("address", "text", required=False),
), key=("table_id",), of_table="table_id")
#: The version of the schema the database holds (one row).
VERSION: Final = Relation("schema_version", (Column("version", "integer"),))


class SchemaAccess(Protocol):
    """What a migration needs of a database: its dialect, statements run in the caller's
    transaction, and the columns a relation has."""

    @property
    def dialect(self) -> Dialect:
        """The database's dialect."""
        ...

    def execute(self, statement: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        """Run a statement (in the dialect, ``?`` already rendered); return its rows."""
        ...

    def columns(self, relation: str) -> set[str]:
        """The columns of ``relation``: empty if there is no such relation."""
        ...


def _tables_and_actions(db: SchemaAccess) -> None:
    """Version 1: the tables and their actions. A database of the versions before
    ``schema_version`` existed (an SQLite file of an earlier server) is recognised by its
    ``tables`` relation and given the columns it lacks: ``active`` empty (unknown: see
    :attr:`StoredTable.active`) and ``listed`` true in every row (the earlier server had no
    unlisted tables). Adding a column rewrites no row, so a file damaged further in is only
    reported as such by its check."""
    if db.columns(TABLES.name):
        # Another program's relation of that name: its error names the missing column.
        db.execute(f"SELECT {', '.join(FIRST_TABLE_COLUMNS)} FROM {TABLES.name} LIMIT 0")
    db.execute(TABLES.create(db.dialect))
    db.execute(ACTIONS.create(db.dialect))
    db.execute(f"SELECT {ACTIONS.names} FROM {ACTIONS.name} LIMIT 0")
    have = db.columns(TABLES.name)
    for column in TABLES.columns:
        if column.name not in have:
            db.execute(f"ALTER TABLE {TABLES.name} ADD COLUMN {column.render(db.dialect)}")


def _leases(db: SchemaAccess) -> None:
    """Version 2: the leases of tables to store processes."""
    db.execute(LEASES.create(db.dialect))


#: The migrations, in order: the first brings a database to version 1, and so on.
def _processes(db: SchemaAccess) -> None:
    """Version 3: what processes that divide the tables share: each table's creator key and
    lobby summary, each lease's holder address, and the settings (the processes' secret)."""
    for relation, columns in ((TABLES, (*TABLES.columns, *LOBBY)), (LEASES, LEASES.columns)):
        have = db.columns(relation.name)
        for column in columns:
            if column.name not in have:
                db.execute(f"ALTER TABLE {relation.name} ADD COLUMN"
                           f" {column.render(db.dialect)}")
    db.execute(SETTINGS.create(db.dialect))
    db.execute(RATES.create(db.dialect))


MIGRATIONS: Final[tuple[Callable[[SchemaAccess], None], ...]] = (
    _tables_and_actions, _leases, _processes)
#: The version of the schema this code writes (the ``schema_version`` relation).
SCHEMA_VERSION: Final = len(MIGRATIONS)


def migrate(db: SchemaAccess, where: str) -> None:
    """Bring the database up to :data:`SCHEMA_VERSION` in the caller's transaction (which the
    caller holds alone: SQLite's write lock, PostgreSQL's advisory lock): each migration past
    the stored version, in order, then the new version. A database of a newer version, or of
    one that cannot be read, raises :class:`SchemaVersionError`, nothing changed."""
    version: object = 0
    if db.columns(VERSION.name):
        rows = db.execute(f"SELECT max(version) FROM {VERSION.name}")
        version = rows[0][0] if rows and rows[0][0] is not None else 0
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise SchemaVersionError(f"{where} holds tables of a schema version this shock_rules"
                                 " cannot read")
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"{where} holds tables of schema version {version}, newer than this shock_rules"
            f" knows ({SCHEMA_VERSION}): upgrade shock_rules")
    if version == SCHEMA_VERSION:
        return
    for number, step in enumerate(MIGRATIONS, start=1):
        if number > version:
            step(db)
    db.execute(VERSION.create(db.dialect))
    db.execute(f"DELETE FROM {VERSION.name}")
    db.execute(db.dialect.sql(f"INSERT INTO {VERSION.name} (version) VALUES (?)"),
               (SCHEMA_VERSION,))


# -- the statements ---------------------------------------------------------------------------


@attrs.frozen
class Statements:
    """The statements both stores run, in one dialect (:meth:`of`)."""

    insert_table: str
    insert_action: str
    select_tables: str
    select_table: str
    select_actions: str
    actions_since: str
    touch: str
    delete_actions: str
    delete_table: str
    seats: str
    seats_to_change: str
    set_seats: str
    summarize: str
    listed: str
    creator_tables: str
    keep_setting: str
    setting: str
    new_bucket: str
    bucket: str
    set_bucket: str
    unfinished: str

    @classmethod
    def of(cls, dialect: Dialect) -> Statements:
        marks = ", ".join("?" for _ in TABLES.columns)
        sql = dialect.sql
        return cls(
            insert_table=sql(f"INSERT INTO tables ({TABLES.names}) VALUES ({marks})"),
            insert_action=sql(f"INSERT INTO actions ({ACTIONS.names}) VALUES (?, ?, ?, ?)"),
            select_tables=f"SELECT {TABLES.names} FROM tables ORDER BY created, id",
            select_table=sql(f"SELECT {TABLES.names} FROM tables WHERE id = ?"),
            select_actions=f"SELECT {ACTIONS.names} FROM actions ORDER BY table_id, step",
            actions_since=sql("SELECT step, seat, action FROM actions"
                              " WHERE table_id = ? AND step >= ? ORDER BY step"),
            touch=sql("UPDATE tables SET active = ? WHERE id = ?"),
            # Both, not the cascade: an SQLite file of the first version has none.
            delete_actions=sql("DELETE FROM actions WHERE table_id = ?"),
            delete_table=sql("DELETE FROM tables WHERE id = ?"),
            seats=sql("SELECT seats FROM tables WHERE id = ?"),
            seats_to_change=sql(f"SELECT seats FROM tables WHERE id = ?{dialect.row_lock}"),
            set_seats=sql("UPDATE tables SET seats = ? WHERE id = ?"),
            # Parameters (True, False), not literals: SQLite's flags are 1 and 0.
            summarize=sql("UPDATE tables SET summary = ?, over = ? WHERE id = ?"),
            listed=sql("SELECT id, config, bots, created, active, creator, summary FROM tables"
                       " WHERE listed = ? ORDER BY coalesce(active, created) DESC, id LIMIT ?"),
            creator_tables=sql("SELECT count(*) FROM tables WHERE creator = ?"
                               " AND (over IS NULL OR over = ?)"),
            keep_setting=sql("INSERT INTO settings (name, value) VALUES (?, ?)"
                             " ON CONFLICT (name) DO NOTHING"),
            setting=sql("SELECT value FROM settings WHERE name = ?"),
            new_bucket=sql("INSERT INTO rates (key, tokens, at) VALUES (?, ?, ?)"
                           " ON CONFLICT (key) DO NOTHING"),
            bucket=sql(f"SELECT tokens, at FROM rates WHERE key = ?{dialect.row_lock}"),
            set_bucket=sql("UPDATE rates SET tokens = ?, at = ? WHERE key = ?"),
            unfinished=sql("SELECT over FROM tables WHERE id = ?"),
        )


# -- the row codec ----------------------------------------------------------------------------


def encode_seats(seats: Mapping[int, str]) -> str:
    """Return a seat map as the store keeps it: JSON text, ``{"0": "random"}``."""
    return json.dumps({str(k): v for k, v in sorted(seats.items())})


def decode_seats(column: str, text: object) -> dict[int, str]:
    """Return a seat map stored as JSON text; raise :class:`BadRowError`, naming ``column``,
    if it is not one."""
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 4
            and isinstance(v, str) for k, v in data.items()):
        raise BadRowError(f"its {column} column is not a JSON object of seats")
    return {int(k): v for k, v in data.items()}


def encode_table(table: StoredTable) -> tuple[object, ...]:
    """Return the row of :data:`TABLES` that keeps ``table`` (its actions are rows of their
    own). A table without a creation time is created now, and one without a last activity was
    last active then."""
    created = table.created or time.time()
    return (table.id, table.config, encode_seats(table.bots), encode_seats(table.seats),
            table.seed, created, created if table.active is None else table.active,
            table.listed, table.creator)


def decode_table(row: Sequence[object], actions: Sequence[StoredAction]) -> StoredTable:
    """Return the table a row of :data:`TABLES` keeps, with its ``actions``; raise
    :class:`BadRowError` if a column it needs cannot be read (the message names the column,
    never what it holds)."""
    table_id, config, bots, seats, seed, created, active, listed, creator = row
    if not isinstance(table_id, str):
        raise BadRowError("its id column is not text")
    if not isinstance(config, str):
        raise BadRowError("its config column is not text")
    if not isinstance(seed, str):
        raise BadRowError("its seed column is not text")
    if (isinstance(created, bool) or not isinstance(created, int | float)
            or not math.isfinite(created)):
        raise BadRowError("its created column is not a time")
    # Not needed to rebuild the table: anything but a time is unknown (counted from the load).
    last = None
    if (not isinstance(active, bool) and isinstance(active, int | float)
            and math.isfinite(active)):
        last = float(active)
    # Not needed either: only a 1 (PostgreSQL's true) is listed, so a damaged value hides a
    # table rather than showing one its creator kept out of the lobby.
    shown = listed is True or (type(listed) is int and listed == 1)
    return StoredTable(id=table_id, config=config, bots=decode_seats("bots", bots),
                       seats=decode_seats("seats", seats), seed=seed, created=float(created),
                       actions=tuple(actions), active=last, listed=shown,
                       creator=creator if isinstance(creator, str) else None)


def take_token(row: Sequence[object], per_second: float, burst: float, now: float
               ) -> tuple[float, float]:
    """Take a token from a bucket row (``tokens``, ``at``) refilled at ``per_second`` up to
    ``burst``: return the tokens to store at ``now`` and the seconds to wait (0: taken)."""
    tokens, at = row
    left = float(tokens) if isinstance(tokens, int | float) else 0.0
    since = float(at) if isinstance(at, int | float) else now
    left = min(burst, left + max(0.0, now - since) * per_second)
    if left >= 1:
        return left - 1, 0.0
    return left, (1 - left) / per_second


def decode_listed(rows: Iterable[Sequence[object]]) -> list[ListedRow]:
    """Return the lobby's rows (:attr:`Statements.listed`); a row that cannot be read is left
    out (it is logged when its table is loaded)."""
    listed = []
    for table_id, config, bots, created, active, creator, summary in rows:
        if not (isinstance(table_id, str) and isinstance(config, str)
                and isinstance(created, int | float) and not isinstance(created, bool)
                and math.isfinite(created)):
            continue
        try:
            seats = decode_seats("bots", bots)
        except BadRowError:
            continue
        last = (float(active) if isinstance(active, int | float)
                and not isinstance(active, bool) and math.isfinite(active) else None)
        listed.append(ListedRow(table_id, config, seats, float(created), last,
                                creator if isinstance(creator, str) else None,
                                Summary.read(summary)))
    return listed


def group_actions(rows: Iterable[Sequence[object]]) -> dict[object, list[StoredAction]]:
    """Return rows of :data:`ACTIONS` (in step order) as each table's actions."""
    acts: dict[object, list[StoredAction]] = {}
    for table_id, step, seat, action in rows:
        acts.setdefault(table_id, []).append(
            StoredAction(step, seat, action))  # type: ignore[arg-type]
    return acts


def decode_tables(rows: Iterable[Sequence[object]],
                  actions: Mapping[object, Sequence[StoredAction]]) -> list[StoredTable]:
    """Return the tables of rows of :data:`TABLES`, each with its actions; a row that cannot
    be read is logged, without its contents, and left out: the other tables load."""
    tables = []
    for row in rows:
        try:
            tables.append(decode_table(row, actions.get(row[0], ())))
        except BadRowError as exc:
            log.error("table %s: could not be restored: %s", printable_id(row[0]), exc)
    return tables


def printable_id(table_id: object) -> str:
    """A stored table's id as a log line may show it: printable, at most 40 characters."""
    text = table_id if isinstance(table_id, str) else repr(table_id)
    return ascii(text[:40]) if not (text.isascii() and text.isprintable()) else text[:40]
