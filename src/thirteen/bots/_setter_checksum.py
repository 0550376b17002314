"""SHA-256 of ``thirteen/data/setter_tables.npz``; written by ``scripts/make_setter_tables.py``."""

TABLES_SHA256 = "ebadb8f7347e4e9e85b3a9d29a0aebbd94807a33d14406c01d623e80260a3aab"
