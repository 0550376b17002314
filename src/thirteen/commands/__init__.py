"""Pieces of the ``thirteen`` command line, one module per job."""
