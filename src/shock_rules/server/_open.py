"""Open the store a ``--db`` names: an SQLite file, or a PostgreSQL URL (the ``[postgres]``
extra, imported only then)."""

from __future__ import annotations

from pathlib import Path

from ._store import SQLiteStore, Store

__all__ = ["open_store"]


def open_store(db: Store | str | Path) -> Store:
    """Return ``db`` if it is a store; for a ``postgresql://`` (or ``postgres://``) URL, a
    PostgreSQL store (the ``[postgres]`` extra); otherwise the SQLite file at that path."""
    if isinstance(db, str) and db.startswith(("postgresql://", "postgres://")):
        from ._postgres import PostgresStore  # the extra's psycopg: only when asked for

        return PostgresStore(db)
    if isinstance(db, str | Path):
        return SQLiteStore(db)
    return db
