// SPDX-License-Identifier: MIT
// A program that uses skn's Go binding as a user would: by module path and
// version, with no replace line. run_consumer.sh points GOPROXY at the
// module proxy the golang-skn-dev package installs (share/skn/goproxy), so
// nothing is downloaded; the binding builds against the INSTALLED libskn
// through pkg-config. The version is the library's (cmake/SknGoModule.cmake
// checks it).
module example.com/skn-consumer

go 1.19

require github.com/skn-project/skn/bindings/go/skn v1.0.0
