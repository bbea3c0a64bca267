# SPDX-License-Identifier: MIT
"""The names the binding gives skn's small C enums (block order, layout class,
ISA, trace kind, log level), in one place for every module that shows them."""
from __future__ import annotations

from typing import Dict

from ._lib import lib

ROW_MAJOR = "row_major"
INPUT_BLOCK_MAJOR = "input_block_major"
ORDERS: Dict[str, int] = {ROW_MAJOR: 0, INPUT_BLOCK_MAJOR: 1}
ORDER_NAMES: Dict[int, str] = {v: k for k, v in ORDERS.items()}
LAYOUT_CLASSES: Dict[int, str] = {0: "contiguous", 1: "strided", 2: "blocked_row_major", 3: "blocked_input_major"}
TRACE_KINDS: Dict[int, str] = {0: "adapter", 1: "kernel", 2: "fallback"}
LOG_LEVELS: Dict[str, int] = {"trace": 0, "debug": 1, "info": 2, "warn": 3, "error": 4, "off": 6}
LOG_LEVEL_NAMES: Dict[int, str] = {v: k for k, v in LOG_LEVELS.items()}

# skn_isa values: the x86-64 tiers 0..4, the aarch64 tiers 16..20.
_ISA_VALUES = list(range(0, 5)) + list(range(16, 21))
_ISAS: Dict[str, int] = {}


def isas() -> Dict[str, int]:
    """ISA name ("avx512vnni") -> skn_isa, read from skn_isa_name once."""
    if not _ISAS:
        for v in _ISA_VALUES:
            _ISAS[lib.skn_isa_name(v).decode()] = v
    return _ISAS


def isa_name(value: int) -> str:
    """skn_isa_name of a value ("scalar", "avx2", ...)."""
    return lib.skn_isa_name(value).decode()
