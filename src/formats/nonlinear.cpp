// TEMPORARY placeholder: replaced by the real codecs
#include <cstdlib>
#include "formats/codecs.hpp"
namespace skn::codec {
void decode_iq4_nl(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_iq4_nl(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_iq4_xs(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_iq4_xs(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_mxfp4(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_mxfp4(const float*, int64_t, uint8_t*) { std::abort(); }
void decode_nvfp4(const uint8_t*, int64_t, float, float*) { std::abort(); }
void quantize_row_nvfp4(const float*, int64_t, uint8_t*) { std::abort(); }
}
