# SPDX-License-Identifier: MIT
"""skn's log messages to a Python callable (skn.h section 11).

The callable gets (level, message): level one of "trace", "debug", "info",
"warn", "error". It may be called from any thread skn runs on. Whatever it
raises is kept (it never unwinds through skn's C frames) and raised by the
binding when the call that logged the message returns."""
from __future__ import annotations

import atexit
from typing import Any, Callable, List, Optional

from ._enums import LOG_LEVEL_NAMES, LOG_LEVELS
from ._lib import LOG_FN, NO_LOG, lib
from .errors import LOG_CALLBACK_ERRORS, InvalidArgumentError, check

LogFn = Callable[[str, str], Any]

# Every callback ever installed stays alive: skn documents that a message
# already being delivered on another thread may still reach the previous
# callback after it is replaced.
_installed: List[Any] = []


def _level_id(level: str) -> int:
    if not isinstance(level, str) or level.lower() not in LOG_LEVELS:
        raise InvalidArgumentError("log level must be one of %s, not %r" % (", ".join(LOG_LEVELS), level))
    return LOG_LEVELS[level.lower()]


def set_log_callback(fn: Optional[LogFn], level: str = "info") -> None:
    """Send skn's log messages at `level` and above to fn(level, message); fn None
    restores skn's default (stderr at the level SKN_LOG names, else nothing).

        import logging
        skn.set_log_callback(lambda level, msg: logging.getLogger("skn").warning(msg), "warn")

    Raises InvalidArgumentError (an unknown level), TypeError (fn not callable)."""
    level_id = _level_id(level)
    if fn is None:
        check(lib.skn_set_log_callback(level_id, NO_LOG, None))
        return
    if not callable(fn):
        raise TypeError("the log callback must be callable as fn(level, message), not %s" % type(fn).__name__)

    def deliver(level_value: int, message: Optional[bytes], user: Any) -> None:
        try:
            fn(LOG_LEVEL_NAMES.get(level_value, str(level_value)),
               message.decode("utf-8", "replace") if message else "")
        except BaseException as e:  # noqa: B036 - nothing may unwind into C; raised after the call
            LOG_CALLBACK_ERRORS.record(e)

    c_fn = LOG_FN(deliver)
    _installed.append(c_fn)
    check(lib.skn_set_log_callback(level_id, c_fn, None))


@atexit.register
def _restore_default_logging() -> None:
    # skn must not call into an interpreter that is shutting down.
    if _installed:
        lib.skn_set_log_callback(LOG_LEVELS["info"], NO_LOG, None)
