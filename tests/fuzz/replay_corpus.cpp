// SPDX-License-Identifier: MIT
// Replays a libFuzzer corpus through the fuzz target without libFuzzer, so
// the committed corpus (tests/fuzz/corpus) is checked by every compiler and
// build type in ctest, the sanitizer builds included:
//   fuzz_gguf_replay DIR_OR_FILE...   (fuzz_imatrix_replay likewise)
// Fails (via the target's abort or a sanitizer) on any input the target
// rejects, and when it finds no input at all.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

size_t replay(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    size_t n = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg(argv[i]);
        if (!std::filesystem::exists(arg)) {
            std::fprintf(stderr, "%s: %s does not exist\n", argv[0], argv[i]);
            return 1;
        }
        if (std::filesystem::is_directory(arg)) {
            for (const auto& e : std::filesystem::recursive_directory_iterator(arg))
                if (e.is_regular_file()) n += replay(e.path());
        } else {
            n += replay(arg);
        }
    }
    std::printf("%s: %zu inputs replayed\n", argv[0], n);
    return n > 0 ? 0 : 1;
}
