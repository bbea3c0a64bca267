// SPDX-License-Identifier: MIT

// Package skn binds libskn (block-quantized GGUF-style weights and the CPU
// matrix products over them) through cgo. It finds the installed library with
// pkg-config (`pkg-config --cflags --libs skn`, from the libskn-dev package).
//
// # Errors
//
// Every fallible call returns an error of type *Error carrying the C status and
// the message skn wrote for it. skn keeps that message per OS thread, and cgo
// may move a goroutine to another thread between two C calls, so each failing
// call and the read of its message run with the goroutine locked to its
// thread (runtime.LockOSThread): the message is always the one of this
// call, never another goroutine's. Test a status with errors.Is:
//
//	if errors.Is(err, skn.ErrBufferTooSmall) { ... }
//
// # Lifetimes
//
// Handles (View, Scope, Context, GGUF, GGUFWriter, GGUFStream, Imatrix) own C
// objects. Call Close when done; a finalizer closes a forgotten handle as a
// safety net, but only when the garbage collector gets to it. Close is
// idempotent; a method called after Close returns an error matching ErrClosed
// instead of touching freed memory. Close must not run concurrently with
// another call on the same handle (skn's own rule for its objects).
//
// Zero-copy slices (GGUF.TensorData, GGUF.ArrayData, Imatrix.Values) point
// into memory the handle owns (the file mapping, the imatrix): they are valid
// only until that handle's Close. Keep the handle reachable while you use them
// — a handle the program no longer refers to may be finalized, unmapping the
// bytes under the slice — with runtime.KeepAlive(handle) after the last use,
// or by simply calling Close after it. Copy the bytes to keep them longer.
//
// Views own what they read: a View made from Go bytes reads a C copy of them
// (cgo forbids C keeping Go pointers), and a tensor view keeps its file
// mapping alive, so a View stays valid after the GGUF it came from is closed.
//
// # Threads
//
// Package-level functions, Views, Scopes, GGUF readers and Imatrix readers may
// be used from any number of goroutines at once. A Context, a GGUFWriter and a
// GGUFStream are used by one goroutine at a time.
package skn
