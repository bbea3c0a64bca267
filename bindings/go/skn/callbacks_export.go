// SPDX-License-Identifier: MIT

package skn

// The Go functions C calls back (trace events, log messages). A file with
// //export may declare but not define C functions in its preamble, so the C
// trampolines that call these live in trace.go and log.go.

// #include <stdint.h>
// #include <skn/skn.h>
import "C"

import "runtime/cgo"

//export sknGoTraceEvent
func sknGoTraceEvent(event *C.skn_trace_event, sink C.uintptr_t) {
	cgo.Handle(sink).Value().(*traceSink).deliver(traceEventFrom(event))
}

//export sknGoLogMessage
func sknGoLogMessage(level C.skn_log_level, message *C.char) {
	if s := logSink.Load(); s != nil {
		s.deliver(LogLevel(level), goString(message))
	}
}
