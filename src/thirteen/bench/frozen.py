"""The last module the fork server's template imports (:data:`thirteen.bench.processes.PRELOAD`):
everything the template imported before it is collected once and frozen out of every later
collection (``gc.freeze``), so a room forked from the template does not walk it all again when
it settles its own heap (``thirteen.server.heap.settle_heap``: some 200,000 objects, 120–250 ms
of every start on the 2-core reference machine). A room frozen this way holds the same objects
out of its collections as one started by itself: what start-up made."""

from __future__ import annotations

import gc

gc.collect()
gc.freeze()
