"""Competitions played at the room's tables: duplicate team events (``events``; the seating and
the rounds' draw of seed 004 in ``duplicate``), sit & go tournaments (``tournaments``),
duplicate practice against the strong bot (``practice``) and the leaderboards (``leaderboards``).

Each runs its tables through a hook their owner calls after every hand; none speaks HTTP (the
routes are in ``http``).

May import: settings, db, money, tables.
"""
