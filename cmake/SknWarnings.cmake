# SPDX-License-Identifier: MIT
add_library(skn_warnings INTERFACE)
target_compile_options(skn_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wno-missing-field-initializers>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic>)
