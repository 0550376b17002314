"""``thirteen bench room``: the card room under load (:mod:`thirteen.bench.room.load`)."""
