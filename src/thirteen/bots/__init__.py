"""Bots and solvers: they import the engine only.

Before any compiled kernel is loaded from numba's cache, the cache is checked against the
kernels' sources (:mod:`thirteen.bots._kernel_cache`).
"""

from thirteen.bots._kernel_cache import drop_stale_kernels

drop_stale_kernels()
