# SPDX-License-Identifier: MIT
# Fails when the example program is not embedded verbatim in the page.
file(READ "${PAGE}" page)
file(READ "${EXAMPLE}" example)
string(FIND "${page}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${EXAMPLE} is not embedded verbatim in ${PAGE}: update the page")
endif()
message(STATUS "example embedded at offset ${at}")
