// SPDX-License-Identifier: MIT

package skn

import (
	"errors"
	"testing"
)

func TestFormatsAndTheirProps(t *testing.T) {
	formats := Formats()
	if len(formats) < 20 || formats[0] != FormatF32 {
		t.Fatalf("Formats() = %v", formats)
	}
	p, err := FormatQ4_K.Info()
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Q4_K" || p.BlockElems != 256 || p.BlockBytes != 144 || !p.BlockQuantized || p.ActivationFormat != FormatQ8_K {
		t.Fatalf("Q4_K props: %+v", p)
	}
	if p, _ := FormatIQ2_XXS.Info(); !p.NeedsImportance {
		t.Fatal("IQ2_XXS should need importance weights")
	}
	if p, _ := FormatQ4_0_R8.Info(); p.BlockRows != 8 || p.Interleaves != FormatQ4_0 || p.BlockBytes != 18 {
		t.Fatalf("Q4_0_R8 props: %+v", p)
	}
	for _, f := range Formats() {
		p, _ := f.Info()
		if (p.BlockRows > 1) != (p.Interleaves != f) {
			t.Errorf("%v: BlockRows %d, Interleaves %v", f, p.BlockRows, p.Interleaves)
		}
	}
	f, err := FormatFromName("iq4_nl")
	if err != nil || f != FormatIQ4_NL || f.String() != "IQ4_NL" {
		t.Fatalf("FormatFromName(iq4_nl) = %v, %v", f, err)
	}
	if _, err := Format(26).Info(); !errors.Is(err, ErrUnknownFormat) {
		t.Fatalf("Format(26).Info() error = %v, want ErrUnknownFormat", err)
	}
	if s := Format(26).String(); s != "Format(26)" {
		t.Fatalf("Format(26).String() = %q", s)
	}
}

func TestCPUAndKernels(t *testing.T) {
	if CPUISA().String() == "unknown" || CPUFeatures() == "" {
		t.Fatalf("CPU: isa %v features %q", CPUISA(), CPUFeatures())
	}
	names := KernelNames()
	found := false
	for _, n := range names {
		if n == "matmul_wt_q4_k_rm_q8_k_scalar" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no scalar Q4_K row-major kernel among %d: %v", len(names), names)
	}
}
