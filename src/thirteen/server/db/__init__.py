"""The room's database: SQLAlchemy models, Alembic migrations, connecting (sessions, row
locks), the group writer that commits every table's writes together, the chaos harness's
fail points, and backups and restores (``thirteen admin backup``/``restore``).

May import: nothing of the room.
"""
