// SPDX-License-Identifier: MIT
package consumer

import "testing"

func TestMajorVersion(t *testing.T) {
	if v := Version(); v/10000 != 1 {
		t.Fatalf("skn_version() = %d, want major 1", v)
	}
}

func TestFixtureContract(t *testing.T) {
	kernel, err := Fixture(FormatQ4K, 1, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	canonical, err := Fixture(FormatQ4K, 0, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	if msg := Disagreement(kernel, FormatQ4K, 1, 4, 3); msg != "" {
		t.Fatalf("kernel-order fixture rejected: %s", msg)
	}
	if msg := Disagreement(canonical, FormatQ4K, 1, 4, 3); msg == "" {
		t.Fatal("canonical bytes read as kernel order were accepted")
	} else {
		t.Logf("canonical as kernel order: %s", msg)
	}
}

func TestGoldenDecoded(t *testing.T) {
	ok, err := GoldenDecodedMatches(FormatQ4K)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatal("golden DECODED differs from skn_dequantize(PACKED)")
	}
}
