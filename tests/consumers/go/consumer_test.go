// SPDX-License-Identifier: MIT

package consumer

import (
	"errors"
	"testing"

	"github.com/skn-project/skn/bindings/go/skn"
)

func TestContract(t *testing.T) {
	msg, err := CheckContract(skn.FormatQ4_K, skn.FormatQ8_0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("canonical as kernel order: %s", msg)
}

// An error crosses the binding with its status: a wrong buffer size.
func TestErrorsCrossTheBinding(t *testing.T) {
	packed, err := skn.Golden(skn.FormatQ8_0, skn.GoldenPacked)
	if err != nil {
		t.Fatal(err)
	}
	shape, err := skn.GoldenInfo(skn.FormatQ8_0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = skn.Dequantize(skn.FormatQ8_0, packed[:len(packed)-1], shape.Rows, shape.Cols)
	if !errors.Is(err, skn.ErrBufferTooSmall) {
		t.Fatalf("one byte short: %v, want ErrBufferTooSmall", err)
	}
}
