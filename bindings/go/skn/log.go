// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
//
// extern void sknGoLogMessage(skn_log_level level, char* message);
//
// static void skn_go_log(skn_log_level level, const char* message, void* user) {
//     (void)user;
//     sknGoLogMessage(level, (char*)message);
// }
//
// static skn_status skn_go_set_log(skn_log_level level, int on) {
//     return skn_set_log_callback(level, on ? skn_go_log : NULL, NULL);
// }
import "C"

import "sync/atomic"

// LogLevel is a level of skn's log (skn_log_level).
type LogLevel int32

const (
	LogTrace LogLevel = C.SKN_LOG_TRACE
	LogDebug LogLevel = C.SKN_LOG_DEBUG // every error with its status, and more
	LogInfo  LogLevel = C.SKN_LOG_INFO
	LogWarn  LogLevel = C.SKN_LOG_WARN
	LogError LogLevel = C.SKN_LOG_ERROR
	LogOff   LogLevel = C.SKN_LOG_OFF
)

func (l LogLevel) String() string {
	switch l {
	case LogTrace:
		return "trace"
	case LogDebug:
		return "debug"
	case LogInfo:
		return "info"
	case LogWarn:
		return "warn"
	case LogError:
		return "error"
	case LogOff:
		return "off"
	}
	return "LogLevel(" + itoa(int64(l)) + ")"
}

type logFunc struct{ fn func(LogLevel, string) }

func (s *logFunc) deliver(level LogLevel, message string) {
	// A panic cannot unwind through skn's C++ frames: the message is dropped.
	defer func() { _ = recover() }()
	s.fn(level, message)
}

// The process's log sink: skn's log is process-wide. C calls one trampoline
// that reads it, so replacing the sink frees nothing a message in flight on
// another thread could still use.
var logSink atomic.Pointer[logFunc]

// SetLogCallback sends skn's log messages at level and above to fn
// (skn_set_log_callback), from whichever thread skn logs on, so fn must be
// safe for concurrent use. nil restores the default: stderr at the level the
// SKN_LOG environment variable names, else nothing. A message already on its
// way when the sink is replaced reaches the new one (or none). A panic in fn
// is recovered and that message dropped. Every error is logged at LogDebug
// with its status and message.
func SetLogCallback(level LogLevel, fn func(LogLevel, string)) error {
	if fn == nil {
		err := check("skn_set_log_callback", func() C.skn_status { return C.skn_go_set_log(C.skn_log_level(level), 0) })
		if err == nil {
			logSink.Store(nil)
		}
		return err
	}
	previous := logSink.Swap(&logFunc{fn: fn})
	err := check("skn_set_log_callback", func() C.skn_status { return C.skn_go_set_log(C.skn_log_level(level), 1) })
	if err != nil {
		logSink.Store(previous)
	}
	return err
}
