"""The last module the fork server's template imports (:data:`thirteen.bench.processes.PRELOAD`):
the template settles its heap as a room does (:func:`thirteen.server.heap.settle_heap`), so
everything it imported is collected once and frozen out of every later collection, and a room
forked from it does not walk it all again when it settles its own (some 200,000 objects,
120–250 ms of every start on the 2-core reference machine). A room frozen this way holds the
same objects out of its collections as one started by itself: what start-up made."""

from __future__ import annotations

from thirteen.server.heap import settle_heap

settle_heap()
