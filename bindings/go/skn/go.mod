// SPDX-License-Identifier: MIT
// The module path is where this directory will be published
// (docs/bindings/go.md, "Module path"); until then the golang-skn-dev
// package serves it from a Go module proxy on disk.
module github.com/skn-project/skn/bindings/go/skn

go 1.19
