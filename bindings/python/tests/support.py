# SPDX-License-Identifier: MIT
"""Shared by the binding's tests: the golden sample weight the C tests quantize
(src/fixtures/sample_weight.cpp, re-derived here float for float), the golden
files' location and their FNV-1a hash."""
from __future__ import annotations

import os
from typing import Dict, Optional, Tuple

import numpy as np

GOLDEN_ROWS, GOLDEN_COLS, GOLDEN_SEED = 8, 1024, 42
_MASK = (1 << 64) - 1


def golden_dir() -> str:
    """tests/golden of the source tree these tests live in (SKN_GOLDEN_DIR overrides)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("SKN_GOLDEN_DIR") or os.path.normpath(os.path.join(here, "..", "..", "..", "tests",
                                                                             "golden"))


class _SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def uniform(self) -> np.float32:
        return np.float32(self.next() >> 40) * np.float32(1.0 / 16777216.0)

    def bell(self) -> np.float32:
        s = self.uniform()
        s = s + self.uniform()
        s = s + self.uniform()
        s = s + self.uniform()
        return (s - np.float32(2.0)) * np.float32(1.7320508)


def sample_weight(rows: int = GOLDEN_ROWS, cols: int = GOLDEN_COLS, seed: int = GOLDEN_SEED) -> np.ndarray:
    """skn_core::sample_weight: every operation is a float32 one, as in C++."""
    rng = _SplitMix64(seed)
    out = np.empty((rows, cols), dtype=np.float32)
    f = np.float32
    for r in range(rows):
        kind = r % 8
        for c in range(cols):
            if kind == 0:
                v = rng.bell()
            elif kind == 1:
                v = rng.uniform() * f(2.0) - f(1.0)
            elif kind == 2:
                v = rng.bell() * (f(24.0) if c % 97 == 13 else f(1.0))
            elif kind == 3:
                if c < 256:
                    v = f(0.0)
                elif c % 5 == 0:
                    v = rng.bell() * f(1e-39)
                else:
                    v = rng.bell() * f(1e-6)
            elif kind == 4:
                v = rng.uniform() + f(0.001)
            elif kind == 5:
                v = -rng.uniform() - f(0.001)
            elif kind == 6:
                v = rng.bell() * f(1000.0) * f(1 + (c // 32) % 7)
            else:
                t = rng.next() % 3
                v = f(-0.75) if t == 0 else (f(0.0) if t == 1 else f(0.75))
            out[r, c] = v
    return out


def golden_importance(cols: int = GOLDEN_COLS) -> np.ndarray:
    """test::golden_importance: 0.25 + ((c * 37) mod 101) / 25, in float32."""
    c = np.arange(cols)
    return (np.float32(0.25) + ((c * 37) % 101).astype(np.float32) / np.float32(25.0)).astype(np.float32)


def fnv1a64(data: bytes) -> int:
    # The offset basis as tests/support/golden_file.cpp spells it (one digit
    # short of the published FNV one): the MANIFEST hashes were made with it.
    h = 1469598103934665603
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & _MASK
    return h


def read_manifest(subdir: str = "quant") -> Dict[str, Tuple[int, int, Optional[int]]]:
    """format -> (bytes, fnv1a64 of the quantized bytes, fnv1a64 of the decoded floats or None)."""
    out = {}
    with open(os.path.join(golden_dir(), subdir, "MANIFEST")) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            out[parts[0]] = (int(parts[1]), int(parts[2], 16), None if parts[3] == "-" else int(parts[3], 16))
    return out


def read_golden(subdir: str, name: str) -> bytes:
    with open(os.path.join(golden_dir(), subdir, name + ".q"), "rb") as f:
        return f.read()
