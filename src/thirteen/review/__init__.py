"""Hand review: every decision a player made in a hand, against the solvers (issue 34).

From one player's copy of a hand's history — and nothing else — :mod:`.rebuild` rebuilds the
view the player had at each of their decisions; the reviewers value the choice made and the
choice the solvers rank first from that view: the Chinese Poker setter, the exact fantasyland
solver, and the Monte Carlo OFC player with a fixed budget and seed. ``docs/review.md`` says
what each figure means.

A layer of its own above the bots: it may import the engine and the bots; the room and the
commands import it (``docs/decisions.md``, "Hand review").
"""
