"""SHA-256 of ``thirteen/data/setter_tables.npz``; written by ``scripts/make_setter_tables.py``."""

TABLES_SHA256 = "17ccb276b3d164ced4e57d3fa410d9a3244c39dfc7f23dfcf7901e649f11a0e9"
