"""Hand reviews in the room (issue 34): a player's review of their own seat's copy of a hand,
queued in the database (``store``), computed once off the event loop by a bounded pool of worker
processes (``workers``) and stored with the hand. A review in flight survives a restart: the
queue is the database, and a review whose process stopped or died is taken again; with several
processes exactly one computes a given review (its row is claimed atomically).

Its own package because it is a concept of its own (a queue of CPU work beside the tables, which
it must never slow), and the only part of the room that runs :mod:`thirteen.review`.

May import: settings, metrics, db.
"""
