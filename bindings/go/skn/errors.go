// SPDX-License-Identifier: MIT

package skn

// #cgo pkg-config: skn
// #include <skn/skn.h>
import "C"

import (
	"errors"
	"runtime"
)

// Status is skn's status code (skn_status).
type Status int

const (
	StatusOK              Status = C.SKN_OK
	StatusInvalidArgument Status = C.SKN_E_INVALID_ARGUMENT
	StatusUnknownFormat   Status = C.SKN_E_UNKNOWN_FORMAT
	StatusUnsupported     Status = C.SKN_E_UNSUPPORTED
	StatusBufferTooSmall  Status = C.SKN_E_BUFFER_TOO_SMALL
	StatusOutOfMemory     Status = C.SKN_E_OUT_OF_MEMORY
	StatusFormat          Status = C.SKN_E_FORMAT
	StatusIO              Status = C.SKN_E_IO
	StatusNotFound        Status = C.SKN_E_NOT_FOUND
	StatusInternal        Status = C.SKN_E_INTERNAL
)

// String is the C constant's name, e.g. "SKN_E_INVALID_ARGUMENT".
func (s Status) String() string { return C.GoString(C.skn_status_name(C.skn_status(s))) }

// Error is a failed skn call: its status, the C function (or Go method) that
// failed, and skn's message saying what was wrong and how to fix it.
type Error struct {
	Status  Status
	Op      string
	Message string
	closed  bool
}

func (e *Error) Error() string {
	return "skn: " + e.Op + ": " + e.Message + " (" + e.Status.String() + ")"
}

// Is makes errors.Is(err, ErrInvalidArgument) (and the other status
// sentinels) true for every *Error of that status.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Op == "" && t.Message == "" && t.Status == e.Status
}

// Unwrap gives ErrClosed for a call on a closed handle.
func (e *Error) Unwrap() error {
	if e.closed {
		return ErrClosed
	}
	return nil
}

// Sentinels for errors.Is, one per status.
var (
	ErrInvalidArgument = &Error{Status: StatusInvalidArgument}
	ErrUnknownFormat   = &Error{Status: StatusUnknownFormat}
	ErrUnsupported     = &Error{Status: StatusUnsupported}
	ErrBufferTooSmall  = &Error{Status: StatusBufferTooSmall}
	ErrOutOfMemory     = &Error{Status: StatusOutOfMemory}
	ErrFormat          = &Error{Status: StatusFormat}
	ErrIO              = &Error{Status: StatusIO}
	ErrNotFound        = &Error{Status: StatusNotFound}
	ErrInternal        = &Error{Status: StatusInternal}
)

// ErrClosed matches (errors.Is) a call on a handle after its Close; such an
// error is also an ErrInvalidArgument.
var ErrClosed = errors.New("skn: handle used after Close")

func closedError(op, what string) error {
	return &Error{Status: StatusInvalidArgument, Op: op, Message: what + " is closed: it was used after Close", closed: true}
}

// argError is an error the binding finds itself before calling C (a Go slice
// shorter than C would read, for one); it reads as skn's own would.
func argError(op, message string) error {
	return &Error{Status: StatusInvalidArgument, Op: op, Message: message}
}

// beforeMessageHook, when set (tests only), runs between a failing C call and
// the read of its message: a test yields there to prove the message still
// comes from the failing call's thread.
var beforeMessageHook func()

// check runs one C call and, on failure, reads skn_last_error on the same OS
// thread: the goroutine is locked to its thread for both, since skn's message
// is per thread and cgo could otherwise resume the goroutine elsewhere.
func check(op string, call func() C.skn_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	status := call()
	if status == C.SKN_OK {
		return nil
	}
	if beforeMessageHook != nil {
		beforeMessageHook()
	}
	return &Error{Status: Status(status), Op: op, Message: C.GoString(C.skn_last_error())}
}
