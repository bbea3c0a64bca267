// TEMPORARY placeholder: replaced by the real codecs
#include <cstdlib>
#include "formats/codecs.hpp"
namespace skn::codec {
void decode_q2_k(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_q2_k(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_q3_k(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_q3_k(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_q4_k(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_q4_k(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_q5_k(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_q5_k(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_q6_k(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_q6_k(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_q8_k(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_q8_k(const float*, int64_t, uint8_t*) { std::abort(); }
}
