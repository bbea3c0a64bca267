# SPDX-License-Identifier: MIT
"""skn.Error and its subclasses: one per skn_status, each carrying the status
and skn_last_error()'s message, so callers catch what they can handle."""
from __future__ import annotations

import threading
from typing import Dict, List, Optional, Tuple, Type

from ._lib import lib


class Error(Exception):
    """An skn call failed. `status` is the skn_status value (an int), `status_name`
    its name ("SKN_E_INVALID_ARGUMENT") and `message` what skn_last_error() said."""

    status: int = -1

    def __init__(self, message: str, status: Optional[int] = None) -> None:
        if status is not None:
            self.status = status
        self.message = message
        self.status_name = lib.skn_status_name(self.status).decode()
        super().__init__("%s: %s" % (self.status_name, message))


class InvalidArgumentError(Error, ValueError):
    """SKN_E_INVALID_ARGUMENT: a bad size, shape or value (also a ValueError)."""
    status = 1


class UnknownFormatError(Error, ValueError):
    """SKN_E_UNKNOWN_FORMAT: a format name or id skn does not know."""
    status = 2


class UnsupportedError(Error):
    """SKN_E_UNSUPPORTED: a known format or option this operation does not support."""
    status = 3


class BufferTooSmallError(Error, ValueError):
    """SKN_E_BUFFER_TOO_SMALL: a source or destination smaller than needed."""
    status = 4


class OutOfMemoryError(Error, MemoryError):
    """SKN_E_OUT_OF_MEMORY."""
    status = 5


class FormatError(Error):
    """SKN_E_FORMAT: malformed bytes (a file, a block)."""
    status = 6


class FileIOError(Error):
    """SKN_E_IO: the system failed to read or write a file."""
    status = 7


class NotFoundError(Error):
    """SKN_E_NOT_FOUND: a path names no file."""
    status = 8


class InternalError(Error):
    """SKN_E_INTERNAL: a bug in skn; please report the message."""
    status = 99


class ClosedError(InvalidArgumentError):
    """A closed GGUF file, writer or context was used (raised by the binding, status
    SKN_E_INVALID_ARGUMENT, as the C API would refuse the NULL handle)."""


_BY_STATUS: Dict[int, Type[Error]] = {c.status: c for c in (
    InvalidArgumentError, UnknownFormatError, UnsupportedError, BufferTooSmallError, OutOfMemoryError,
    FormatError, FileIOError, NotFoundError, InternalError)}


def error_for(status: int, message: str) -> Error:
    """The exception for `status` with `message`."""
    cls = _BY_STATUS.get(status)
    if cls is None:
        return Error(message, status)
    return cls(message)


class CallbackErrors:
    """Exceptions raised by Python callbacks skn called (trace sinks, the log
    callback). A Python exception must never unwind through C frames, so the
    callback's wrapper records it here and returns normally; the binding
    raises it once the C call is back (see check)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._errors: List[Tuple[int, BaseException]] = []

    def record(self, exc: BaseException) -> None:
        with self._lock:
            self._errors.append((threading.get_ident(), exc))

    def take(self, thread: Optional[int] = None) -> Optional[BaseException]:
        """The first exception recorded, None when there is none; the ones after it
        are dropped (one call raises once, however many events failed). With
        `thread`, only that thread's are taken when it has any; failing that, all
        (skn's worker threads have no Python caller to raise theirs in)."""
        if not self._errors:  # the common case, without the lock
            return None
        with self._lock:
            taken = [e for e in self._errors if e[0] == thread] if thread is not None else []
            if taken:
                self._errors = [e for e in self._errors if e[0] != thread]
            else:
                taken, self._errors = self._errors, []
        return taken[0][1] if taken else None


# The log callback is process-wide: what it raises goes back to the thread
# whose call logged the message (skn logs on the calling thread), or, for a
# message from skn's worker pool, to the next call any thread checks.
LOG_CALLBACK_ERRORS = CallbackErrors()


def check(status: int, what: str = "", pending: Optional[CallbackErrors] = None) -> None:
    """Raise the Error subclass for `status` (with skn_last_error()) unless it is SKN_OK.
    Must run on the thread that made the call: skn's message is per thread.
    An exception a callback raised during the call (`pending`: a trace sink's; the
    log callback's always) is raised instead, with the skn Error, if any, as its
    __context__."""
    error = None
    if status != 0:
        message = lib.skn_last_error().decode("utf-8", "replace")
        error = error_for(status, message if not what else "%s: %s" % (what, message))
    raised = pending.take() if pending is not None else None
    if raised is None:
        raised = LOG_CALLBACK_ERRORS.take(threading.get_ident())
    if raised is not None:
        if error is not None:
            raised.__context__ = error
        raise raised
    if error is not None:
        raise error
