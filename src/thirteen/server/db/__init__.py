"""The room's database: SQLAlchemy models, Alembic migrations and session helpers."""
