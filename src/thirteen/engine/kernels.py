"""Compiled loops for the batch evaluation path (numba, cached on disk after the first run).

Imported lazily by :mod:`thirteen.engine.evaluate`, so programs that never evaluate in batch do
not pay numba's start-up. Kernels trust their input: callers check card ranges first.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]


@numba.njit(cache=True, nogil=True)
def five_into(hands: I8, key5: I32, bit: I32, ranks: I16, flushes: I16, out: I16) -> None:
    """``out[i]`` = the table value of five cards: ``flushes`` by rank bits, else ``ranks``."""
    for i in range(hands.shape[0]):
        a = hands[i, 0]
        b = hands[i, 1]
        c = hands[i, 2]
        d = hands[i, 3]
        e = hands[i, 4]
        s = a & 3
        if (b & 3) == s and (c & 3) == s and (d & 3) == s and (e & 3) == s:
            out[i] = flushes[bit[a] | bit[b] | bit[c] | bit[d] | bit[e]]
        else:
            out[i] = ranks[key5[a] + key5[b] + key5[c] + key5[d] + key5[e]]


@numba.njit(cache=True, nogil=True)
def three_into(hands: I8, key3: I32, ranks: I16, out: I16) -> None:
    """``out[i]`` = the front strength of three cards."""
    for i in range(hands.shape[0]):
        out[i] = ranks[key3[hands[i, 0]] + key3[hands[i, 1]] + key3[hands[i, 2]]]
