// SPDX-License-Identifier: MIT

package skn

import (
	"errors"
	"strings"
	"testing"
)

// The fixture check of the C consumer, for every block format: the
// kernel-order fixture passes, canonical bytes read as kernel order are named
// as wrong, and the byte relayout maps one fixture onto the other.
func TestFixtureContractEveryFormat(t *testing.T) {
	const blocks = FixtureDefaultBlocksPerRow
	for _, f := range blockFormats(t) {
		// A row-interleaved format's fixture is at least two blocks tall (2 R rows).
		p, _ := f.Info()
		rows := int64(FixtureDefaultRows)
		if int64(2*p.BlockRows) > rows {
			rows = int64(2 * p.BlockRows)
		}
		kernel, err := FixtureBytes(f, InputBlockMajor, rows, blocks)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		canonical, err := FixtureBytes(f, RowMajor, rows, blocks)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if msg := FixtureDisagreement(kernel, f, InputBlockMajor, rows, blocks); msg != "" {
			t.Errorf("%v: kernel-order fixture rejected: %s", f, msg)
		}
		msg := FixtureDisagreement(canonical, f, InputBlockMajor, rows, blocks)
		if !strings.Contains(msg, "exactly the ROW_MAJOR order fixture") {
			t.Errorf("%v: canonical bytes read as kernel order: %q", f, msg)
		}
		toKernel, err := PackedToKernelOrder(f, canonical, rows, blocks)
		if err != nil || !sameBytes(toKernel, kernel) {
			t.Errorf("%v: PackedToKernelOrder(canonical fixture) is not the kernel fixture (%v)", f, err)
		}
		back, err := PackedToCanonicalOrder(f, kernel, rows, blocks)
		if err != nil || !sameBytes(back, canonical) {
			t.Errorf("%v: PackedToCanonicalOrder(kernel fixture) is not the canonical fixture (%v)", f, err)
		}
	}
}

func TestFixtureErrors(t *testing.T) {
	if _, err := FixtureBytes(FormatQ4_0, RowMajor, 4, 1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("one block per row: %v", err)
	}
	if _, err := FixtureBytes(FormatF32, RowMajor, 4, 3); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("dense format: %v", err)
	}
	kernel, err := FixtureBytes(FormatQ4_0, InputBlockMajor, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	if msg := FixtureDisagreement(kernel[:len(kernel)-1], FormatQ4_0, InputBlockMajor, 4, 3); msg == "" {
		t.Error("a fixture one byte short was accepted")
	}
	if msg := FixtureDisagreement(nil, FormatQ4_0, InputBlockMajor, 4, 3); msg == "" {
		t.Error("no bytes were accepted")
	}
	if _, err := PackedToKernelOrder(FormatQ4_0, kernel[:10], 4, 3); !errors.Is(err, ErrBufferTooSmall) {
		t.Errorf("10 bytes for 12 blocks: %v", err)
	}
	if _, err := GoldenInfo(Format(26)); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("golden of format 26: %v", err)
	}
	if _, err := GoldenFloats(FormatQ4_0, GoldenPacked); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("packed part as floats: %v", err)
	}
}
