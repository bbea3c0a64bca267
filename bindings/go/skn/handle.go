// SPDX-License-Identifier: MIT

package skn

// #cgo pkg-config: skn
// #include <skn/skn.h>
import "C"

import "runtime"

// onHandle runs call, one C call on a handle whose C pointer is ptr and whose
// Go value is owner: ErrClosed (naming op and what, "the view") when ptr is
// nil, the handle having been closed; else the call's error. owner stays
// alive until the call returns, so its finalizer cannot destroy ptr under it.
func onHandle[T any](owner any, ptr *T, op, what string, call func() C.skn_status) error {
	if ptr == nil {
		return closedError(op, what)
	}
	err := check(op, call)
	runtime.KeepAlive(owner)
	return err
}

// weightView is nil, or ErrClosed naming op when w is nil or closed: the
// check a call that takes a weight view makes before reading its shape.
func weightView(op string, w *View) error {
	if w == nil || w.ptr == nil {
		return closedError(op, "the weight view")
	}
	return nil
}
