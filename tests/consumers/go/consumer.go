// SPDX-License-Identifier: MIT

// Package consumer is a downstream Go program's use of skn through the
// binding (bindings/go/skn) against the INSTALLED library: the consumer
// contract check of docs/packaging.md, as tests/consumers/c/consumer.c runs it.
package consumer

import (
	"bytes"
	"fmt"
	"math"

	"github.com/skn-project/skn/bindings/go/skn"
)

// CheckContract runs the contract check: the library's major version is the
// header's, the Q4_K kernel-order fixture passes, canonical bytes read as
// kernel order are named as wrong (the message is returned), and each
// golden fixture's DECODED part is Dequantize of its PACKED part.
func CheckContract(golden ...skn.Format) (canonicalAsKernel string, err error) {
	if skn.Version()/10000 != skn.HeaderVersion/10000 || skn.Version() < skn.HeaderVersion {
		return "", fmt.Errorf("libskn %s does not serve header version %d", skn.VersionString(), skn.HeaderVersion)
	}
	const rows, blocks = skn.FixtureDefaultRows, skn.FixtureDefaultBlocksPerRow
	kernel, err := skn.FixtureBytes(skn.FormatQ4_K, skn.InputBlockMajor, rows, blocks)
	if err != nil {
		return "", err
	}
	canonical, err := skn.FixtureBytes(skn.FormatQ4_K, skn.RowMajor, rows, blocks)
	if err != nil {
		return "", err
	}
	if msg := skn.FixtureDisagreement(kernel, skn.FormatQ4_K, skn.InputBlockMajor, rows, blocks); msg != "" {
		return "", fmt.Errorf("kernel-order fixture rejected: %s", msg)
	}
	canonicalAsKernel = skn.FixtureDisagreement(canonical, skn.FormatQ4_K, skn.InputBlockMajor, rows, blocks)
	if canonicalAsKernel == "" {
		return "", fmt.Errorf("canonical bytes read as kernel order were accepted")
	}
	for _, f := range golden {
		if err := goldenDecodeMatches(f); err != nil {
			return canonicalAsKernel, err
		}
	}
	return canonicalAsKernel, nil
}

func goldenDecodeMatches(f skn.Format) error {
	shape, err := skn.GoldenInfo(f)
	if err != nil {
		return err
	}
	packed, err := skn.Golden(f, skn.GoldenPacked)
	if err != nil {
		return err
	}
	want, err := skn.Golden(f, skn.GoldenDecoded)
	if err != nil {
		return err
	}
	mine, err := skn.Dequantize(f, packed, shape.Rows, shape.Cols)
	if err != nil {
		return err
	}
	got := make([]byte, 0, 4*len(mine))
	for _, x := range mine {
		bits := math.Float32bits(x)
		got = append(got, byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24))
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%v: golden DECODED differs from Dequantize(PACKED)", f)
	}
	return nil
}
