# SPDX-License-Identifier: MIT
"""skn.Error and its subclasses: one per skn_status, each carrying the status
and skn_last_error()'s message, so callers catch what they can handle."""
from __future__ import annotations

from typing import Dict, Optional, Type

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


def check(status: int, what: str = "") -> None:
    """Raise the Error subclass for `status` (with skn_last_error()) unless it is SKN_OK.
    Must run on the thread that made the call: skn's message is per thread."""
    if status != 0:
        message = lib.skn_last_error().decode("utf-8", "replace")
        raise error_for(status, message if not what else "%s: %s" % (what, message))
