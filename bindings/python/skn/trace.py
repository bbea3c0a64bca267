# SPDX-License-Identifier: MIT
"""Trace events (skn.h section 6, rule 3 of docs/packed-weight-layout.md):
every conversion, kernel choice and fallback skn makes, delivered to a Python
callable as a TraceEvent.

A trace callable is called on the thread doing the work, possibly on several
of skn's worker threads at once, with the GIL held. Whatever it raises is
kept (it never unwinds through skn's C frames) and raised by the binding when
the call that produced the event returns."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ._enums import LAYOUT_CLASSES, ORDER_NAMES, TRACE_KINDS, isa_name
from ._lib import TRACE_FN, FormatProps, TraceEvent as _CEvent, lib
from .errors import CallbackErrors


@dataclass(frozen=True)
class TraceEvent:
    """One skn_trace_event, copied out of C. `kind` is "adapter" (bytes converted
    from one block order to another: from_order, to_order and bytes say which and
    how many), "kernel" (a kernel ran: name, isa, layout_class and the shape n, out,
    in_) or "fallback" (the reference kernel ran although SIMD was allowed: detail
    says why). Fields that do not apply to the kind are None."""
    kind: str
    name: str
    detail: str
    format: Optional[str]
    from_order: Optional[str]
    to_order: Optional[str]
    bytes: Optional[int]
    nanoseconds: int
    isa: Optional[str]
    layout_class: Optional[str]
    n: Optional[int]
    out: Optional[int]
    in_: Optional[int]


TraceFn = Callable[[TraceEvent], Any]


def _format_name(fid: int) -> Optional[str]:
    # No check(): this runs inside a callback, where raising would be wrong.
    p = FormatProps()
    p.struct_size = ctypes.sizeof(FormatProps)
    if lib.skn_format_info(fid, ctypes.byref(p)) != 0 or not p.name:
        return None
    return p.name.decode()


def _text(raw: Optional[bytes]) -> str:
    return raw.decode("utf-8", "replace") if raw else ""


def event_from_c(e: _CEvent) -> TraceEvent:
    """A Python copy of the event (its strings live only during the callback)."""
    kind = TRACE_KINDS.get(e.kind, "unknown")
    adapter = kind == "adapter"
    ran = kind in ("kernel", "fallback")
    return TraceEvent(kind=kind, name=_text(e.name), detail=_text(e.detail), format=_format_name(e.format),
                      from_order=ORDER_NAMES.get(e.from_order) if adapter else None,
                      to_order=ORDER_NAMES.get(e.to_order) if adapter else None,
                      bytes=int(e.bytes) if adapter else None, nanoseconds=int(e.nanoseconds),
                      isa=isa_name(e.isa) if ran else None,
                      layout_class=LAYOUT_CLASSES.get(e.layout_class) if ran else None,
                      n=int(e.n) if ran else None, out=int(e.out) if ran else None, in_=int(e.in_) if ran else None)


class TraceSink:
    """A Python callable as an skn_trace_fn. Holds the C function pointer (which
    must stay alive as long as skn may call it) and the exceptions the callable
    raised, for the binding to raise after the call."""

    def __init__(self, fn: TraceFn) -> None:
        if not callable(fn):
            raise TypeError("a trace sink must be callable (it is given each skn.TraceEvent), not %s"
                            % type(fn).__name__)
        self.fn = fn
        self.errors = CallbackErrors()
        self.c_fn = TRACE_FN(self._deliver)

    def _deliver(self, event: Any, user: Any) -> None:
        try:
            self.fn(event_from_c(event.contents))
        except BaseException as e:  # noqa: B036 - nothing may unwind into C; raised after the call
            self.errors.record(e)
