// SPDX-License-Identifier: MIT

package skn

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestErrorCarriesStatusOpAndMessage(t *testing.T) {
	_, err := FormatFromName("Q4_K_M")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("FormatFromName(Q4_K_M) = %v, want an *Error", err)
	}
	if e.Status != StatusUnknownFormat || e.Op != "skn_format_from_name" {
		t.Fatalf("got status %v op %q", e.Status, e.Op)
	}
	// skn says a llama.cpp file type is a mix of formats, not one format.
	if !strings.Contains(e.Message, "Q4_K_M") {
		t.Fatalf("message does not name the input: %q", e.Message)
	}
	if !errors.Is(err, ErrUnknownFormat) || errors.Is(err, ErrInvalidArgument) || errors.Is(err, ErrClosed) {
		t.Fatalf("errors.Is matches the wrong sentinels for %v", err)
	}
	if !strings.Contains(err.Error(), "SKN_E_UNKNOWN_FORMAT") {
		t.Fatalf("Error() lacks the status name: %q", err.Error())
	}
}

func TestStatusNames(t *testing.T) {
	for s, want := range map[Status]string{
		StatusOK: "SKN_OK", StatusInvalidArgument: "SKN_E_INVALID_ARGUMENT", StatusBufferTooSmall: "SKN_E_BUFFER_TOO_SMALL",
		StatusFormat: "SKN_E_FORMAT", StatusNotFound: "SKN_E_NOT_FOUND", StatusInternal: "SKN_E_INTERNAL",
	} {
		if s.String() != want {
			t.Errorf("Status(%d).String() = %q, want %q", int(s), s.String(), want)
		}
	}
}

// Each goroutine provokes an error naming its own input while others
// provoke theirs and succeed (a success clears its thread's message). The
// hook yields between the failing call and the read of its message, where an
// unpinned goroutine would often resume on another thread and read that
// thread's message (another's, or "") instead of its own.
func TestErrorMessageIsReadOnTheFailingCallsThread(t *testing.T) {
	beforeMessageHook = runtime.Gosched
	defer func() { beforeMessageHook = nil }()
	const goroutines, rounds = 32, 200
	var wg sync.WaitGroup
	failures := make(chan string, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				name := fmt.Sprintf("nosuch_%d_%d", g, r)
				_, err := FormatFromName(name)
				var e *Error
				if !errors.As(err, &e) || !strings.Contains(e.Message, name) {
					failures <- fmt.Sprintf("goroutine %d round %d: error %v does not name %s", g, r, err, name)
					return
				}
				if _, err := FormatFromName("q8_0"); err != nil {
					failures <- err.Error()
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

func TestVersionMatchesHeader(t *testing.T) {
	if Version()/10000 != HeaderVersion/10000 || Version() < HeaderVersion {
		t.Fatalf("library %d (%s) is not compatible with header %d", Version(), VersionString(), HeaderVersion)
	}
	if !strings.HasPrefix(VersionString(), fmt.Sprintf("%d.", Version()/10000)) {
		t.Fatalf("VersionString %q disagrees with Version %d", VersionString(), Version())
	}
}
