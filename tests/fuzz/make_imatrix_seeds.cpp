// SPDX-License-Identifier: MIT
// Writes the imatrix fuzz seeds into DIR: the sample imatrix (a dense entry,
// a 3-D expert entry with an unused expert, a second dense entry) in the GGUF
// form and in the legacy form with each of its trailers.
//   make_imatrix_seeds DIR
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "support/imatrix_files.hpp"

namespace {

bool put(const std::string& path, const std::vector<uint8_t>& b) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    return bool(out);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_imatrix_seeds DIR\n");
        return 2;
    }
    using namespace skn_core::test;
    const std::string dir = argv[1];
    const ImatrixSpec s = sample_imatrix_spec();
    auto chunk_only = imatrix_legacy_bytes(s, false);
    const int32_t chunks = 42;
    const auto* c = reinterpret_cast<const uint8_t*>(&chunks);
    chunk_only.insert(chunk_only.end(), c, c + 4);
    const bool ok = put(dir + "/sample.imatrix.gguf", imatrix_gguf_bytes(s)) &&
                    put(dir + "/sample.imatrix.dat", imatrix_legacy_bytes(s)) &&
                    put(dir + "/no_trailer.imatrix.dat", imatrix_legacy_bytes(s, false)) &&
                    put(dir + "/chunk_only.imatrix.dat", chunk_only);
    if (!ok) std::fprintf(stderr, "make_imatrix_seeds: cannot write into %s\n", dir.c_str());
    return ok ? 0 : 1;
}
