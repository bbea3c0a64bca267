# SPDX-License-Identifier: MIT
"""quantize / dequantize against the golden files the C tests use
(tests/golden/quant: ggml's reference quantizers' bytes and decoded floats)."""
import unittest

import numpy as np

import skn

from support import (GOLDEN_COLS, GOLDEN_ROWS, fnv1a64, golden_importance, read_golden, read_manifest,
                      sample_weight)


class GoldenQuantize(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.w = sample_weight()
        cls.plain = read_manifest("quant")
        cls.weighted = read_manifest("quant/imatrix")

    def test_sample_weight_matches_the_c_generator(self):
        # f16 of the sample is exact bytes: a mismatch here means the Python
        # re-derivation drifted, not the library.
        golden = read_golden("quant", "f16")
        self.assertEqual(np.frombuffer(golden, dtype="<f2").reshape(self.w.shape).tobytes(),
                         self.w.astype("<f2").tobytes())

    def test_every_golden_format_quantizes_to_the_golden_bytes(self):
        self.assertGreaterEqual(len(self.plain), 20)
        for name, (nbytes, qhash, _) in self.plain.items():
            with self.subTest(format=name):
                golden = read_golden("quant", name)
                self.assertEqual(len(golden), nbytes)
                self.assertEqual(fnv1a64(golden), qhash, "golden file corrupted")
                mine = skn.quantize(self.w, name)
                self.assertEqual(mine.dtype, np.uint8)
                self.assertEqual(mine.size, skn.quantized_size(name, self.w.shape))
                self.assertEqual(mine.tobytes(), golden)

    def test_every_golden_decodes_to_the_reference_floats(self):
        for name, (_, _, dhash) in self.plain.items():
            if dhash is None:
                continue
            with self.subTest(format=name):
                decoded = skn.dequantize(read_golden("quant", name), name, (GOLDEN_ROWS, GOLDEN_COLS))
                self.assertEqual(decoded.dtype, np.float32)
                self.assertEqual(decoded.shape, (GOLDEN_ROWS, GOLDEN_COLS))
                self.assertEqual(fnv1a64(decoded.tobytes()), dhash)

    def test_importance_weighted_goldens(self):
        imp = golden_importance()
        self.assertGreaterEqual(len(self.weighted), 10)
        for name, (_, qhash, dhash) in self.weighted.items():
            with self.subTest(format=name):
                mine = skn.quantize(self.w, name, imatrix=imp)
                self.assertEqual(fnv1a64(mine.tobytes()), qhash)
                self.assertEqual(mine.tobytes(), read_golden("quant/imatrix", name))
                if dhash is not None:
                    self.assertEqual(fnv1a64(skn.dequantize(mine, name, self.w.shape).tobytes()), dhash)

    def test_threads_give_the_same_bytes(self):
        one = skn.quantize(self.w, "q4_k")
        for threads in (1, 2, 3):
            self.assertEqual(skn.quantize(self.w, "q4_k", threads=threads).tobytes(), one.tobytes())

    def test_rows_are_every_leading_dimension(self):
        w3 = self.w.reshape(2, 4, GOLDEN_COLS)
        self.assertEqual(skn.quantize(w3, "q8_0").tobytes(), skn.quantize(self.w, "q8_0").tobytes())
        one_row = skn.quantize(self.w[0], "q6_k")
        self.assertEqual(one_row.tobytes(), skn.quantize(self.w[:1], "q6_k").tobytes())

    def test_non_contiguous_and_float64_input_is_converted(self):
        wide = np.asfortranarray(self.w.astype(np.float64))
        self.assertEqual(skn.quantize(wide, "q4_0").tobytes(), skn.quantize(self.w, "q4_0").tobytes())

    def test_out_and_bytes_like_input(self):
        out = np.zeros(skn.quantized_size("q5_k", self.w.shape) + 7, dtype=np.uint8)
        got = skn.quantize(self.w, "q5_k", out=out)
        self.assertEqual(got.tobytes(), skn.quantize(self.w, "q5_k").tobytes())
        for buf in (got.tobytes(), bytearray(got.tobytes()), memoryview(got.tobytes())):
            d = skn.dequantize(buf, "q5_k", self.w.shape)
            np.testing.assert_array_equal(d, skn.dequantize(got, "q5_k", self.w.shape))


class QuantizeErrors(unittest.TestCase):
    def setUp(self):
        self.w = np.ones((4, 768), dtype=np.float32)

    def test_unknown_format_name_lists_the_names(self):
        with self.assertRaises(skn.UnknownFormatError) as cm:
            skn.quantize(self.w, "q4_z")
        self.assertEqual(cm.exception.status, 2)
        self.assertEqual(cm.exception.status_name, "SKN_E_UNKNOWN_FORMAT")
        self.assertIn("Q4_K", cm.exception.message)
        self.assertIsInstance(cm.exception, skn.Error)

    def test_file_type_name_is_explained(self):
        with self.assertRaises(skn.UnknownFormatError) as cm:
            skn.format_id("Q4_K_M")
        self.assertIn("Q4_K_M", cm.exception.message)

    def test_unknown_format_id(self):
        with self.assertRaises(skn.UnknownFormatError):
            skn.quantize(self.w, 4)  # removed GGUF type id

    def test_unaligned_row_length(self):
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.quantize(np.ones((4, 100), np.float32), "q4_k")
        self.assertEqual(cm.exception.status, 1)

    def test_non_finite_input_names_its_position(self):
        w = self.w.copy()
        w[2, 77] = np.nan
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.quantize(w, "q4_0")
        self.assertIn("77", cm.exception.message)

    def test_format_needing_importance_is_refused_without(self):
        self.assertTrue(skn.format_info("iq2_xxs").needs_importance)
        with self.assertRaises(skn.InvalidArgumentError):
            skn.quantize(self.w, "iq2_xxs")

    def test_imatrix_of_the_wrong_length(self):
        with self.assertRaises(skn.InvalidArgumentError):
            skn.quantize(self.w, "q4_k", imatrix=np.ones(767, np.float32))

    def test_bad_thread_count(self):
        with self.assertRaises(skn.InvalidArgumentError):
            skn.quantize(self.w, "q4_k", threads=5000)

    def test_out_too_small(self):
        with self.assertRaises(skn.BufferTooSmallError) as cm:
            skn.quantize(self.w, "q4_k", out=np.empty(10, np.uint8))
        self.assertEqual(cm.exception.status, 4)

    def test_dequantize_buffer_of_the_wrong_size(self):
        packed = skn.quantize(self.w, "q4_k")
        with self.assertRaises(skn.BufferTooSmallError) as cm:
            skn.dequantize(packed[:-1], "q4_k", self.w.shape)
        self.assertIn(str(packed.size), cm.exception.message)
        with self.assertRaises(skn.BufferTooSmallError):
            skn.dequantize(b"", "q4_k", self.w.shape)

    def test_dequantize_wrong_shape(self):
        packed = skn.quantize(self.w, "q4_k")
        with self.assertRaises(skn.InvalidArgumentError):
            skn.dequantize(packed, "q4_k", (4, 700))  # not a multiple of 256
        with self.assertRaises(skn.BufferTooSmallError):
            skn.dequantize(packed, "q4_k", (8, 768))  # more rows than the bytes hold

    def test_bad_types(self):
        with self.assertRaises(TypeError):
            skn.dequantize(12345, "q4_k", (1, 256))
        with self.assertRaises(TypeError):
            skn.format_id(3.5)


class Formats(unittest.TestCase):
    def test_table(self):
        names = [f.name for f in skn.formats()]
        self.assertIn("Q4_K", names)
        q4k = skn.format_info("q4_k")
        self.assertEqual((q4k.id, q4k.block_elems, q4k.block_bytes), (12, 256, 144))
        self.assertEqual(skn.format_name(12), "Q4_K")
        self.assertEqual(skn.format_id("Q8_0"), 8)


if __name__ == "__main__":
    unittest.main()
