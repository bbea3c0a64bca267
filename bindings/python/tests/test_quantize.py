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
            skn.dequantize(packed.reshape(-1)[:-1], "q4_k", self.w.shape)
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


class ByteShapes(unittest.TestCase):
    """Quantized bytes come out (..., row_bytes), as gguf-py lays them out, and
    dequantize reads the shape back from them."""

    def setUp(self):
        self.w = sample_weight()  # [8, 1024]

    def test_quantize_gives_rows_of_bytes(self):
        q = skn.quantize(self.w, "q4_k")
        self.assertEqual((q.shape, q.dtype), ((8, 4 * 144), np.uint8))
        self.assertEqual(q.size, skn.quantized_size("q4_k", self.w.shape))
        self.assertEqual(skn.quantize(self.w.reshape(2, 4, 1024), "q8_0").shape, (2, 4, 32 * 34))
        self.assertEqual(skn.quantize(self.w[0], "q6_k").shape, (4 * 210,))
        self.assertEqual(skn.quantize(self.w, "f16").shape, (8, 2048))
        i2s = skn.quantize(np.tile([-1.0, 0.0, 1.0, 1.0], (2, 64)).astype(np.float32), "i2_s")
        self.assertEqual(i2s.shape, (skn.quantized_size("i2_s", (2, 256)),))  # the trailer keeps it flat

    def test_dequantize_infers_the_shape(self):
        for fmt, shape in (("q4_k", (8, 1024)), ("q8_0", (2, 4, 1024)), ("iq4_nl", (1024,)), ("bf16", (8, 1024))):
            with self.subTest(format=fmt):
                w = self.w.reshape(-1)[:int(np.prod(shape))].reshape(shape)
                q = skn.quantize(w, fmt)
                d = skn.dequantize(q, fmt)
                self.assertEqual(d.shape, shape)
                self.assertEqual(d.tobytes(), skn.dequantize(q.tobytes(), fmt, shape).tobytes())

    def test_what_cannot_be_inferred(self):
        q = skn.quantize(self.w, "q4_k")
        with self.assertRaises(TypeError) as cm:
            skn.dequantize(q.tobytes(), "q4_k")
        self.assertIn("shape=", str(cm.exception))
        with self.assertRaises(skn.InvalidArgumentError):
            skn.dequantize(q[:, :100], "q4_k")  # 100 bytes is no whole number of 144-byte blocks
        i2s = skn.quantize(np.ones((2, 256), np.float32), "i2_s")
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.dequantize(i2s.reshape(1, -1), "i2_s")
        self.assertIn("trailer", cm.exception.message)

    def test_a_larger_buffer_needs_prefix(self):
        q = skn.quantize(np.random.default_rng(1).standard_normal((512, 1024), dtype=np.float32), "q8_0")
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.dequantize(q, "q8_0", (512, 512))
        self.assertIn("prefix=True", cm.exception.message)
        self.assertIn("[512, 1024]", cm.exception.message)
        with self.assertRaises(skn.InvalidArgumentError):
            skn.dequantize(q.tobytes(), "q8_0", (512, 512))
        half = skn.dequantize(q, "q8_0", (512, 512), prefix=True)
        whole = skn.dequantize(q, "q8_0")
        self.assertEqual(half.tobytes(), whole.reshape(-1)[:512 * 512].tobytes())

    def test_rows_that_disagree_with_the_shape(self):
        q = skn.quantize(self.w, "q8_0")  # [8, 1024]: rows of 1088 bytes
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.dequantize(q, "q8_0", (16, 512))  # as many bytes, other rows
        self.assertIn("1088", cm.exception.message)
        self.assertEqual(skn.dequantize(q.reshape(-1), "q8_0", (16, 512)).shape, (16, 512))  # flat: caller's word


class FormatArguments(unittest.TestCase):
    def test_format_info_and_numpy_ids(self):
        w = sample_weight()
        want = skn.quantize(w, "q4_k").tobytes()
        for fmt in (skn.format_info("q4_k"), 12, np.int32(12), np.uint8(12), np.int64(12)):
            with self.subTest(fmt=repr(fmt)):
                self.assertEqual(skn.quantize(w, fmt).tobytes(), want)
                self.assertEqual(skn.format_id(fmt), 12)
        self.assertEqual(skn.format_info(np.int16(8)).name, "Q8_0")
        q = skn.quantize(w, "q4_k")
        np.testing.assert_array_equal(skn.dequantize(q, skn.format_info("Q4_K")), skn.dequantize(q, "q4_k"))
        self.assertEqual(skn.View.from_bytes(q, np.int32(12), w.shape).format, "Q4_K")

    def test_bad_format_arguments(self):
        with self.assertRaises(TypeError):
            skn.format_id(True)
        with self.assertRaises(TypeError):
            skn.format_id(np.bool_(True))
        with self.assertRaises(skn.UnknownFormatError):
            skn.format_id(2**32 + 12)  # must not wrap onto Q4_K
        with self.assertRaises(skn.UnknownFormatError):
            skn.format_info(-5)


class ListInputs(unittest.TestCase):
    def test_nested_lists_of_numbers_work(self):
        rows = [[float(c % 7) for c in range(64)], [1] * 64]
        self.assertEqual(skn.quantize(rows, "q8_0").tobytes(),
                         skn.quantize(np.array(rows, np.float32), "q8_0").tobytes())

    def test_ragged_and_mixed_lists_get_skn_errors(self):
        row = [0.5] * 32
        for bad, words in (([row, row[:31]], "array is ragged"), ([row, ["x"] * 32], "array[1][0] is a str"),
                           ([row, None], "array[1] is None"), ([row, 1.0], "mixes lists and numbers"),
                           ([row[:31] + [1 + 2j]], "array[0][31] is a complex"),
                           (np.array(["1.5"] * 32), "dtype <U3"), (5.0, "single number")):
            with self.subTest(bad=words):
                with self.assertRaises(skn.InvalidArgumentError) as cm:
                    skn.quantize(bad, "q8_0")
                self.assertIn(words, cm.exception.message)
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.matmul_wt([[1.0, 2.0], [3.0]], skn.View.from_bytes(skn.quantize(np.ones((3, 64), np.float32), "q8_0"),
                                                                  "q8_0", (3, 64)))
        self.assertIn("x is ragged", cm.exception.message)


if __name__ == "__main__":
    unittest.main()
