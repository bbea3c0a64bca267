// SPDX-License-Identifier: MIT

package skn

// #include <stdint.h>
// #include <string.h>
// #include <skn/skn.h>
//
// extern void sknGoTraceEvent(skn_trace_event* event, uintptr_t sink);
//
// /* A library older than this binding sends a shorter event: copy what it
//  * has and leave the rest zero, so Go reads only fields that exist. */
// static void skn_go_trace(const skn_trace_event* event, void* user) {
//     skn_trace_event e;
//     memset(&e, 0, sizeof e);
//     memcpy(&e, event, event->struct_size < sizeof e ? event->struct_size : sizeof e);
//     sknGoTraceEvent(&e, (uintptr_t)user);
// }
//
// /* The sink travels as an integer (a cgo.Handle), never as a Go pointer. */
// static skn_status skn_go_set_trace(skn_context* ctx, uintptr_t sink) {
//     return skn_context_set_trace(ctx, sink != 0 ? skn_go_trace : NULL, (void*)sink);
// }
import "C"

import (
	"runtime/cgo"
	"sync"
)

// TraceKind is what a trace event reports (skn_trace_kind).
type TraceKind int32

const (
	// TraceAdapter: bytes were converted from one block order to another.
	TraceAdapter TraceKind = C.SKN_TRACE_ADAPTER
	// TraceKernel: a kernel ran.
	TraceKernel TraceKind = C.SKN_TRACE_KERNEL
	// TraceFallback: the reference kernel ran although the ISA cap allowed SIMD.
	TraceFallback TraceKind = C.SKN_TRACE_FALLBACK
)

func (k TraceKind) String() string {
	switch k {
	case TraceAdapter:
		return "ADAPTER"
	case TraceKernel:
		return "KERNEL"
	case TraceFallback:
		return "FALLBACK"
	}
	return "TraceKind(" + itoa(int64(k)) + ")"
}

// TraceEvent is one skn_trace_event, copied: it stays valid after the sink returns.
type TraceEvent struct {
	Kind        TraceKind
	Name        string // ADAPTER: "prepack"; KERNEL, FALLBACK: the kernel's name
	Detail      string // what moved, or why a fallback happened
	Format      Format
	FromOrder   BlockOrder // ADAPTER: the order converted from
	ToOrder     BlockOrder // ADAPTER: the order converted to
	Bytes       uint64     // ADAPTER: bytes copied
	Nanoseconds int64      // time the work took
	ISA         ISA        // KERNEL, FALLBACK: the tier of the kernel that ran
	LayoutClass LayoutClass
	N, Out, In  int64 // KERNEL, FALLBACK: x is [N, In], W is [Out, In]
}

func traceEventFrom(e *C.skn_trace_event) TraceEvent {
	return TraceEvent{
		Kind:        TraceKind(e.kind),
		Name:        goString(e.name),
		Detail:      goString(e.detail),
		Format:      Format(e.format),
		FromOrder:   BlockOrder(e.from_order),
		ToOrder:     BlockOrder(e.to_order),
		Bytes:       uint64(e.bytes),
		Nanoseconds: int64(e.nanoseconds),
		ISA:         ISA(e.isa),
		LayoutClass: LayoutClass(e.layout_class),
		N:           int64(e.n),
		Out:         int64(e.out),
		In:          int64(e.in),
	}
}

func goString(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// traceSink is a Context's sink: the function, and the first panic it raised,
// which the Context call that emitted the event raises again in its own
// goroutine (a panic cannot cross the C frames between them).
type traceSink struct {
	fn       func(TraceEvent)
	handle   cgo.Handle
	mu       sync.Mutex
	panicked any
	didPanic bool
}

func (s *traceSink) deliver(e TraceEvent) {
	defer func() {
		if p := recover(); p != nil {
			s.mu.Lock()
			if !s.didPanic {
				s.panicked, s.didPanic = p, true
			}
			s.mu.Unlock()
		}
	}()
	s.fn(e)
}

// rethrow raises, in the calling goroutine, a panic the sink raised during
// the call that just returned.
func (s *traceSink) rethrow() {
	s.mu.Lock()
	p, did := s.panicked, s.didPanic
	s.panicked, s.didPanic = nil, false
	s.mu.Unlock()
	if did {
		panic(p)
	}
}

// SetTrace sends the ADAPTER, KERNEL and FALLBACK events of this context's
// calls to fn (skn_context_set_trace); nil removes the sink. fn runs on the
// threads doing the work, the context's pool threads included, so several
// calls may run at once: it must be safe for concurrent use, and should be
// quick. A panic in fn is recovered there and raised again by the Context
// method whose work emitted the event, after the C call has returned.
func (c *Context) SetTrace(fn func(TraceEvent)) error {
	var next *traceSink
	var handle C.uintptr_t
	if fn != nil {
		next = &traceSink{fn: fn}
		next.handle = cgo.NewHandle(next)
		handle = C.uintptr_t(next.handle)
	}
	err := onHandle(c, c.ptr, "skn_context_set_trace", "the context", func() C.skn_status {
		return C.skn_go_set_trace(c.ptr, handle)
	})
	if err != nil {
		if next != nil {
			next.handle.Delete()
		}
		return err
	}
	// One goroutine uses a context at a time and events come only during
	// its calls, so none can still be on its way to the old sink.
	c.dropTrace()
	c.trace = next
	return nil
}

func (c *Context) dropTrace() {
	if c.trace != nil {
		c.trace.handle.Delete()
		c.trace = nil
	}
}
