// SPDX-License-Identifier: MIT
// Compiled with -std=c++14 by the wrapper_cxx14_error test: skn.hpp must stop
// with its own #error naming the standard it needs, not a std::void_t error.
#include "skn/skn.hpp"
int main() { return 0; }
