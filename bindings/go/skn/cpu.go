// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
import "C"

// ISA is an instruction-set tier skn's kernels are built for (skn_isa).
type ISA int32

const (
	ISAScalar      ISA = C.SKN_ISA_SCALAR
	ISAAVX2        ISA = C.SKN_ISA_AVX2
	ISAAVXVNNI     ISA = C.SKN_ISA_AVX_VNNI
	ISAAVX512      ISA = C.SKN_ISA_AVX512
	ISAAVX512VNNI  ISA = C.SKN_ISA_AVX512_VNNI
	ISANEON        ISA = C.SKN_ISA_NEON
	ISANEONDotProd ISA = C.SKN_ISA_NEON_DOTPROD
	ISANEONI8MM    ISA = C.SKN_ISA_NEON_I8MM
	ISASVE         ISA = C.SKN_ISA_SVE
	ISASVE2        ISA = C.SKN_ISA_SVE2
)

// String is the tier's lower-case name, as SKN_ISA accepts it ("avx512vnni").
func (i ISA) String() string { return C.GoString(C.skn_isa_name(C.skn_isa(i))) }

// CPUISA is the best tier this CPU and operating system support.
func CPUISA() ISA { return ISA(C.skn_cpu_isa()) }

// CPUFeatures is the one-line list of CPU features skn detected.
func CPUFeatures() string { return C.GoString(C.skn_cpu_features()) }

// KernelNames lists every registered kernel, e.g. "matmul_wt_q4_k_ibm_q8_k_avx512vnni".
func KernelNames() []string {
	n := int(C.skn_kernel_count())
	names := make([]string, 0, n)
	for i := 0; i < n; i++ {
		names = append(names, C.GoString(C.skn_kernel_name(C.int32_t(i))))
	}
	return names
}
