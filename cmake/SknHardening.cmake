# SPDX-License-Identifier: MIT
# The hardening Debian builds its packages with (dpkg-buildflags with
# hardening=+all): glibc's checked variants of memcpy, snprintf, ... where
# the compiler knows a buffer's size (_FORTIFY_SOURCE=2: optimised builds
# only, as glibc requires), and a GOT made read-only after start-up
# (-z relro -z now). The packages are made from the release build the tests
# ran on, so that build carries them; lintian checks them (docs/packaging.md).
# Sanitizer builds go without: ASan and TSan replace those functions
# themselves.
option(SKN_HARDENING "Build with _FORTIFY_SOURCE=2 and -z relro -z now" ON)
if(SKN_HARDENING AND NOT "${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS}" MATCHES "-fsanitize")
  set(_skn_optimised "$<CONFIG:Release,RelWithDebInfo,MinSizeRel>")
  add_compile_options("$<${_skn_optimised}:-U_FORTIFY_SOURCE>" "$<${_skn_optimised}:-D_FORTIFY_SOURCE=2>")
  add_link_options(LINKER:-z,relro LINKER:-z,now)
endif()
