// SPDX-License-Identifier: MIT
module skn.example/consumer

go 1.19

require skn.example/skn v0.0.0

// The binding from this source tree (no network: GOPROXY=off); it builds
// against the INSTALLED libskn through pkg-config.
replace skn.example/skn => ../../../bindings/go/skn
