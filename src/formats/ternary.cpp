// TEMPORARY placeholder: replaced by the real codecs
#include <cstdlib>
#include "formats/codecs.hpp"
namespace skn::codec {
void decode_tq1_0(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_tq1_0(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_tq2_0(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_tq2_0(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_i2_s(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_tensor_i2_s(const float*, int64_t, int64_t, uint8_t*) { std::abort(); }
float read_tensor_scale_i2_s(const uint8_t*) { std::abort(); }
}
