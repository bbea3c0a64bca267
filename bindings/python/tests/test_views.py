# SPDX-License-Identifier: MIT
"""Views, block orders, prepack and relayout; the fixtures' contract check
and golden decode, as the C consumers run them."""
import unittest

import numpy as np

import skn

ROWS, COLS = 4, 768  # 3 blocks of Q4_K per row: the two orders differ


def sample(rows=ROWS, cols=COLS, seed=3):
    return np.random.default_rng(seed).standard_normal((rows, cols), dtype=np.float32)


class Views(unittest.TestCase):
    def setUp(self):
        self.w = sample()
        self.packed = skn.quantize(self.w, "q4_k")
        self.view = skn.View.from_bytes(self.packed, "q4_k", (ROWS, COLS))

    def test_properties(self):
        v = self.view
        self.assertEqual((v.format, v.format_id, v.shape, v.ndim), ("Q4_K", 12, (ROWS, COLS), 2))
        self.assertEqual(v.order, skn.ROW_MAJOR)
        self.assertEqual(v.layout_class, "blocked_row_major")
        self.assertIn("Q4_K [4, 768]", v.describe())

    def test_both_orders_decode_to_the_same_floats(self):
        decoded = skn.dequantize(self.packed, "q4_k", (ROWS, COLS))
        k = self.view.prepack("input_block_major")
        self.assertEqual(k.order, skn.INPUT_BLOCK_MAJOR)
        self.assertEqual(k.layout_class, "blocked_input_major")
        np.testing.assert_array_equal(self.view.to_float(), decoded)
        np.testing.assert_array_equal(k.to_float(), decoded)
        self.assertEqual(k.get(3, 700), decoded[3, 700])
        self.assertEqual(self.view.get((1, 300)), decoded[1, 300])
        # the same order again: the same bytes, no copy
        self.assertEqual(k.prepack(skn.INPUT_BLOCK_MAJOR).to_float().tobytes(), decoded.tobytes())

    def test_prepacked_copy_outlives_its_source(self):
        k = self.view.prepack("input_block_major")
        expect = k.to_float()
        del self.view, self.packed
        np.testing.assert_array_equal(k.to_float(), expect)

    def test_view_keeps_its_buffer_alive(self):
        v = skn.View.from_bytes(skn.quantize(self.w, "q8_0").tobytes(), "q8_0", (ROWS, COLS))
        np.testing.assert_array_equal(v.to_float(), skn.dequantize(skn.quantize(self.w, "q8_0"), "q8_0",
                                                                   (ROWS, COLS)))

    def test_kernel_order_bytes_and_back(self):
        kbytes = skn.to_kernel_order(self.packed, "q4_k", ROWS, 3)
        self.assertNotEqual(kbytes.tobytes(), self.packed.tobytes())
        self.assertEqual(skn.to_canonical_order(kbytes, "q4_k", ROWS, 3).tobytes(), self.packed.tobytes())
        kv = skn.View.from_bytes(kbytes, "q4_k", (ROWS, COLS), order="input_block_major")
        np.testing.assert_array_equal(kv.to_float(), self.view.to_float())

    def test_narrow_select_unsqueeze(self):
        decoded = self.view.to_float()
        n = self.view.prepack("input_block_major").narrow(1, 256, 512)
        self.assertEqual(n.shape, (ROWS, 512))
        np.testing.assert_array_equal(n.to_float(), decoded[:, 256:768])
        r = self.view.narrow(0, 1, 2)
        np.testing.assert_array_equal(r.to_float(), decoded[1:3])
        s = self.view.select(0, 2)
        np.testing.assert_array_equal(s.to_float(), decoded[2])
        u = self.view.unsqueeze(0)
        self.assertEqual(u.shape, (1, ROWS, COLS))

    def test_dense_view_transposes(self):
        d = np.arange(12, dtype=np.float32).reshape(3, 4)
        v = skn.View.from_bytes(d, "f32", (3, 4)).transpose(0, 1)
        self.assertEqual(v.layout_class, "strided")
        np.testing.assert_array_equal(v.to_float(), d.T)

    def test_errors(self):
        with self.assertRaises(skn.UnsupportedError) as cm:
            self.view.transpose(0, 1)
        self.assertIn("matmul_wt", cm.exception.message)
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.View.from_bytes(self.packed.reshape(-1)[:-1], "q4_k", (ROWS, COLS))
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.View.from_bytes(self.packed, "q4_k", (COLS, ROWS))
        with self.assertRaises(skn.InvalidArgumentError):
            self.view.narrow(1, 100, 256)  # splits a block
        with self.assertRaises(skn.InvalidArgumentError):
            self.view.get(ROWS, 0)  # out of range
        with self.assertRaises(skn.InvalidArgumentError):
            self.view.select(1, 0)  # the block axis
        with self.assertRaises(ValueError):
            self.view.prepack("column_major")
        with self.assertRaises(skn.UnsupportedError):
            skn.View.from_bytes(np.zeros(12, np.float32), "f32", (3, 4)).prepack("input_block_major")
        with self.assertRaises(skn.BufferTooSmallError):
            skn.to_kernel_order(self.packed.reshape(-1)[:100], "q4_k", ROWS, 3)
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.require_out_in(COLS, ROWS, "q4_k")
        self.assertIn("looks like [in, out]", cm.exception.message)


class Fixtures(unittest.TestCase):
    def test_contract_check_every_block_format(self):
        for f in skn.formats():
            if not f.is_block_quantized:
                continue
            with self.subTest(format=f.name):
                # A row-interleaved format's fixture is at least two blocks tall (2 R rows).
                rows = max(skn.DEFAULT_ROWS, 2 * f.block_rows)
                kernel = skn.fixture_bytes(f.name, kernel_order=True, rows=rows)
                canonical = skn.fixture_bytes(f.name, rows=rows)
                self.assertIsNone(skn.disagreement(kernel, f.name, kernel_order=True, rows=rows))
                self.assertIsNone(skn.disagreement(canonical, f.name, rows=rows))
                msg = skn.disagreement(canonical, f.name, kernel_order=True, rows=rows)
                self.assertIsNotNone(msg)
                self.assertIn("ROW_MAJOR", msg)
                # relayout of the canonical fixture is the kernel one
                self.assertEqual(skn.to_kernel_order(canonical, f.name, rows, 3).tobytes(), kernel.tobytes())

    def test_interleaved_formats_name_their_rows_and_canonical_format(self):
        q4 = skn.format_info("q4_0_r8")
        self.assertEqual((q4.block_rows, q4.interleaves, q4.block_bytes), (8, skn.format_id("q4_0"), 18))
        self.assertEqual((skn.format_info("bf16_r16").block_rows, skn.format_info("q4_k").block_rows), (16, 1))
        self.assertEqual(skn.format_info("q4_k").interleaves, skn.format_id("q4_k"))
        for f in skn.formats():
            self.assertEqual(f.block_rows > 1, f.interleaves != f.id, f.name)

    def test_fixture_errors(self):
        with self.assertRaises(skn.InvalidArgumentError):
            skn.fixture_bytes("q4_k", rows=1)
        with self.assertRaises(skn.InvalidArgumentError):
            skn.fixture_bytes("f32")
        self.assertIn("1728 bytes but 10", skn.disagreement(b"\0" * 10, "q4_k"))

    def test_golden_decode_and_product(self):
        for f in skn.formats():
            if not f.is_block_quantized:
                continue
            with self.subTest(format=f.name):
                g = skn.golden(f.name)
                rows, cols = g.source.shape
                self.assertGreaterEqual(cols // f.block_elems, 3)
                decoded = skn.dequantize(g.packed, f.name, (rows, cols))
                self.assertEqual(decoded.tobytes(), g.decoded.tobytes())
                kv = skn.View.from_bytes(g.packed_kernel_order, f.name, (rows, cols), "input_block_major")
                self.assertEqual(kv.to_float().tobytes(), g.decoded.tobytes())
                y = skn.matmul_wt(g.x, kv, precision="exact")
                ref = g.x.astype(np.float64) @ g.decoded.astype(np.float64).T
                scale = np.abs(g.x.astype(np.float64)) @ np.abs(g.decoded.astype(np.float64)).T
                self.assertTrue(np.all(np.abs(y - ref) <= 1e-5 * scale + 1e-6))
                np.testing.assert_allclose(g.y, ref.astype(np.float32), rtol=1e-5, atol=1e-5 * scale.max())


if __name__ == "__main__":
    unittest.main()
