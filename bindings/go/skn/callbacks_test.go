// SPDX-License-Identifier: MIT

package skn

import (
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// testWeight quantizes a deterministic [out, in] weight to f, ROW_MAJOR.
func testWeight(t *testing.T, f Format, out, in int64) ([]byte, *View) {
	t.Helper()
	src := make([]float32, out*in)
	for i := range src {
		src[i] = float32(math.Sin(float64(i) * 0.1))
	}
	packed, err := Quantize(f, src, out, in)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ViewFromBytes(packed, f, []int64{out, in}, RowMajor)
	if err != nil {
		t.Fatal(err)
	}
	return packed, w
}

// events collects trace events from any thread.
type events struct {
	mu   sync.Mutex
	seen []TraceEvent
}

func (e *events) add(ev TraceEvent) {
	e.mu.Lock()
	e.seen = append(e.seen, ev)
	e.mu.Unlock()
}

func (e *events) all() []TraceEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]TraceEvent(nil), e.seen...)
}

// A KERNEL (or FALLBACK) event names the kernel, its ISA and the shape; none
// arrive after the sink is removed.
func TestTraceNamesTheKernelAndShape(t *testing.T) {
	const out, in = 3, 96 // three Q8_0 blocks per row
	_, w := testWeight(t, FormatQ8_0, out, in)
	defer w.Close()
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	var got events
	if err := ctx.SetTrace(got.add); err != nil {
		t.Fatal(err)
	}
	x := make([]float32, 2*in)
	y := make([]float32, 2*out)
	if err := ctx.MatmulWt(x, w, nil, y, nil); err != nil {
		t.Fatal(err)
	}
	var kernel *TraceEvent
	for _, e := range got.all() {
		if e.Kind == TraceKernel || e.Kind == TraceFallback {
			e := e
			kernel = &e
		}
	}
	if kernel == nil {
		t.Fatalf("no KERNEL event among %+v", got.all())
	}
	if !strings.HasPrefix(kernel.Name, "matmul_wt_q8_0_rm_") || kernel.Format != FormatQ8_0 {
		t.Fatalf("kernel event %+v: not a Q8_0 ROW_MAJOR kernel", *kernel)
	}
	if kernel.N != 2 || kernel.Out != out || kernel.In != in {
		t.Fatalf("kernel event shape N=%d Out=%d In=%d, want 2, %d, %d", kernel.N, kernel.Out, kernel.In, out, in)
	}
	// The name ends in its tier, or in its tier and a variant ("..._avx512vnni_ahead").
	if isa := kernel.ISA.String(); isa == "" || isa == "unknown" ||
		!(strings.HasSuffix(kernel.Name, "_"+isa) || strings.Contains(kernel.Name, "_"+isa+"_")) {
		t.Fatalf("kernel %q ran at ISA %q: the name must end in its tier (and a variant, if any)", kernel.Name, isa)
	}
	if err := ctx.SetTrace(nil); err != nil {
		t.Fatal(err)
	}
	before := len(got.all())
	if err := ctx.MatmulWt(x, w, nil, y, nil); err != nil {
		t.Fatal(err)
	}
	if after := len(got.all()); after != before {
		t.Fatalf("%d events after the sink was removed", after-before)
	}
}

// PrepackForMatmul sends one ADAPTER event with the bytes copied exactly when
// it converts the weight, and none when the weight keeps its order.
func TestTraceAdapterEventsMatchConversions(t *testing.T) {
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	scope, err := NewScope()
	if err != nil {
		t.Fatal(err)
	}
	defer scope.Close()
	var got events
	if err := ctx.SetTrace(got.add); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatQ4_0, FormatQ8_0, FormatQ4_K} {
		packed, rm := testWeight(t, f, 4, 768)
		ibm, err := rm.Prepack(InputBlockMajor, scope)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []*View{rm, ibm} {
			before := len(got.all())
			best, err := ctx.PrepackForMatmul(w, scope)
			if err != nil {
				t.Fatal(err)
			}
			var adapters []TraceEvent
			for _, e := range got.all()[before:] {
				if e.Kind == TraceAdapter {
					adapters = append(adapters, e)
				}
			}
			if best.Order() == w.Order() {
				if len(adapters) != 0 {
					t.Fatalf("%v %v kept its order but sent %+v", f, w.Order(), adapters)
				}
			} else if len(adapters) != 1 || adapters[0].Bytes != uint64(len(packed)) ||
				adapters[0].FromOrder != w.Order() || adapters[0].ToOrder != best.Order() || adapters[0].Format != f {
				t.Fatalf("%v %v -> %v: want one ADAPTER event of %d bytes, got %+v", f, w.Order(), best.Order(),
					len(packed), adapters)
			}
			t.Logf("%v %v -> %v, %d adapter events", f, w.Order(), best.Order(), len(adapters))
			best.Close()
		}
		ibm.Close()
		rm.Close()
	}
}

// The pool's threads deliver events too; the sink is called concurrently.
func TestTraceFromPoolThreads(t *testing.T) {
	_, w := testWeight(t, FormatQ4_0, 256, 1024)
	defer w.Close()
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	if err := ctx.SetThreads(2); err != nil {
		t.Fatal(err)
	}
	var kernels atomic.Int64
	if err := ctx.SetTrace(func(e TraceEvent) {
		if e.Kind == TraceKernel || e.Kind == TraceFallback {
			kernels.Add(1)
		}
	}); err != nil {
		t.Fatal(err)
	}
	x := make([]float32, 8*1024)
	y := make([]float32, 8*256)
	for i := 0; i < 4; i++ {
		if err := ctx.MatmulWt(x, w, nil, y, nil); err != nil {
			t.Fatal(err)
		}
	}
	if kernels.Load() < 4 {
		t.Fatalf("%d KERNEL events for 4 calls", kernels.Load())
	}
}

// A panic in the sink is raised again by the call whose work emitted the
// event, in the caller's goroutine; the context keeps working.
func TestTraceSinkPanicIsRaisedByTheCall(t *testing.T) {
	_, w := testWeight(t, FormatQ8_0, 3, 96)
	defer w.Close()
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	if err := ctx.SetTrace(func(TraceEvent) { panic("sink failure") }); err != nil {
		t.Fatal(err)
	}
	x, y := make([]float32, 96), make([]float32, 3)
	raised := func() (p any) {
		defer func() { p = recover() }()
		_ = ctx.MatmulWt(x, w, nil, y, nil)
		return nil
	}()
	if raised != "sink failure" {
		t.Fatalf("MatmulWt raised %v, want the sink's panic", raised)
	}
	if err := ctx.SetTrace(nil); err != nil {
		t.Fatal(err)
	}
	if err := ctx.MatmulWt(x, w, nil, y, nil); err != nil {
		t.Fatal(err)
	}
	ctx.Close()
	if err := ctx.SetTrace(func(TraceEvent) {}); !errors.Is(err, ErrClosed) {
		t.Fatalf("SetTrace after Close: %v, want ErrClosed", err)
	}
}

type logLines struct {
	mu    sync.Mutex
	lines []string
	level []LogLevel
}

func (l *logLines) add(level LogLevel, msg string) {
	l.mu.Lock()
	l.lines = append(l.lines, msg)
	l.level = append(l.level, level)
	l.mu.Unlock()
}

func (l *logLines) has(level LogLevel, part string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, m := range l.lines {
		if l.level[i] == level && strings.Contains(m, part) {
			return true
		}
	}
	return false
}

// Errors are logged at DEBUG with their message: a sink at DEBUG sees them, a
// sink at ERROR does not; a bad level is refused and keeps the sink there was;
// a panicking sink loses its message, not the program.
func TestLogCallback(t *testing.T) {
	defer func() { _ = SetLogCallback(LogOff, nil) }()
	var debug logLines
	if err := SetLogCallback(LogDebug, debug.add); err != nil {
		t.Fatal(err)
	}
	_, err := QuantizedSize(Format(4), 1, 32) // ids 4 and 5 are unused by GGUF
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("QuantizedSize(Format(4)): %v, want an *Error", err)
	}
	if !debug.has(LogDebug, e.Message) {
		t.Fatalf("the DEBUG sink did not get %q: %q", e.Message, debug.lines)
	}

	if err := SetLogCallback(LogLevel(99), func(LogLevel, string) {}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("level 99: %v, want ErrInvalidArgument", err)
	}
	_, err = QuantizedSize(Format(5), 1, 32)
	if !errors.As(err, &e) || !debug.has(LogDebug, e.Message) {
		t.Fatalf("after a refused level the previous sink must stay: %q", debug.lines)
	}

	var errorsOnly logLines
	if err := SetLogCallback(LogError, errorsOnly.add); err != nil {
		t.Fatal(err)
	}
	if _, err := QuantizedSize(Format(4), 1, 32); err == nil {
		t.Fatal("QuantizedSize(Format(4)) must fail")
	}
	if len(errorsOnly.lines) != 0 {
		t.Fatalf("an ERROR-level sink got DEBUG messages: %q", errorsOnly.lines)
	}

	if err := SetLogCallback(LogDebug, func(LogLevel, string) { panic("log sink failure") }); err != nil {
		t.Fatal(err)
	}
	if _, err := QuantizedSize(Format(4), 1, 32); !errors.Is(err, ErrUnknownFormat) {
		t.Fatalf("with a panicking log sink: %v, want ErrUnknownFormat", err)
	}
	if err := SetLogCallback(LogOff, nil); err != nil {
		t.Fatal(err)
	}
}
