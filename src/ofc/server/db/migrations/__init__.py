"""Alembic's script directory for the server's database: ``env.py`` and the revisions in ``versions/``.

Run by ``ofc.server.db.migrate`` (no ``alembic.ini``); docs/server.md says how to add a revision.
"""
