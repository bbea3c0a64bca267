// TEMPORARY placeholder: replaced by the real codecs
#include <cstdlib>
#include "formats/codecs.hpp"
namespace skn::codec {
void decode_q1_0(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_q1_0(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_q2_0(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_q2_0(const float*, int64_t, uint8_t*) { std::abort(); }
}
