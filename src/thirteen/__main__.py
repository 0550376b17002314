"""``python -m thirteen``: the ``thirteen`` command, for an environment without its script."""

from thirteen.cli import main

main()
