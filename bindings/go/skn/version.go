// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
import "C"

// HeaderVersion is SKN_VERSION_NUMBER of the header this package was built
// against: MAJOR*10000 + MINOR*100 + PATCH.
const HeaderVersion = C.SKN_VERSION_NUMBER

// Version is the running library's version number, ordered as HeaderVersion.
func Version() uint { return uint(C.skn_version()) }

// VersionString is the running library's version, "MAJOR.MINOR.PATCH".
func VersionString() string { return C.GoString(C.skn_version_string()) }
