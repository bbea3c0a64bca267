# SPDX-License-Identifier: MIT
"""GGUFWriter beyond the basics: llama.cpp's key types, typed helpers, nested
arrays, clear refusals of values GGUF cannot hold, and streaming a file
tensor by tensor."""
import os
import tempfile
import unittest

import numpy as np

import skn


def read(writer):
    return skn.GGUF.from_bytes(writer.to_bytes())


class LlamaKeyTypes(unittest.TestCase):
    def test_the_table(self):
        for key, want in (("llama.block_count", "u32"), ("qwen2moe.expert_used_count", "u32"),
                          ("llama.attention.layer_norm_rms_epsilon", "f32"), ("llama.rope.freq_base", "f32"),
                          ("general.file_type", "u32"), ("general.quantization_version", "u32"),
                          ("general.alignment", "u32"), ("tokenizer.ggml.bos_token_id", "u32"),
                          ("tokenizer.ggml.add_bos_token", "bool"), ("split.count", "u16"),
                          ("split.tensors.count", "i32"), ("general.sampling.top_k", "i32"),
                          ("general.name", "string"), ("general.base_model.0.name", "string"),
                          ("imatrix.chunk_count", "u32"), ("llama.use_parallel_residual", "bool")):
            self.assertEqual(skn.llama_key_type(key), want, key)
        for key in ("general.block_count", "my.own.key", "llama", "tokenizer.ggml.tokens"):
            self.assertIsNone(skn.llama_key_type(key), key)

    def test_plain_add_stores_llama_cpp_s_types(self):
        w = skn.GGUFWriter()
        w.add("general.architecture", "llama")
        w.add("llama.block_count", 2)
        w.add("llama.attention.layer_norm_rms_epsilon", 1)  # an int for an f32 key: stored as f32
        w.add("general.file_type", np.int64(15))
        w.add("tokenizer.ggml.eos_token_id", 2)
        w.add("llama.attention.head_count", [32, 32, 8])  # per-layer values
        w.add("tokenizer.ggml.precompiled_charsmap", b"\x00\x01\xff")
        w.add("my.count", 2)  # unknown keys: as gguf-py infers
        m = read(w).metadata
        self.assertEqual([m.type_of(k) for k in ("llama.block_count", "llama.attention.layer_norm_rms_epsilon",
                                                 "general.file_type", "tokenizer.ggml.eos_token_id", "my.count")],
                         ["u32", "f32", "u32", "u32", "i32"])
        self.assertEqual((m["llama.block_count"], m["llama.attention.layer_norm_rms_epsilon"]), (2, 1.0))
        self.assertEqual(m["llama.attention.head_count"].tolist(), [32, 32, 8])
        self.assertEqual(m.array_info("tokenizer.ggml.precompiled_charsmap"), ("u8", 3))
        self.assertEqual(m["tokenizer.ggml.precompiled_charsmap"].tobytes(), b"\x00\x01\xff")

    def test_values_llama_cpp_would_refuse_are_refused(self):
        w = skn.GGUFWriter()
        for key, value in (("llama.block_count", "2"), ("llama.block_count", 2.0), ("llama.block_count", True),
                           ("llama.block_count", [2, 2]), ("general.name", 7), ("llama.rope.freq_base", "1e4"),
                           ("tokenizer.ggml.add_bos_token", 1), ("llama.block_count", -1)):
            with self.subTest(key=key, value=value):
                with self.assertRaises(skn.InvalidArgumentError) as cm:
                    w.add(key, value)
                self.assertIn(key, cm.exception.message)
        # type= is the caller's word over the table.
        w.add("llama.block_count", 2, type="i32")
        self.assertEqual(read(w).metadata.type_of("llama.block_count"), "i32")

    def test_typed_helpers(self):
        w = skn.GGUFWriter()
        helpers = [("add_uint8", 255, "u8"), ("add_int8", -128, "i8"), ("add_uint16", 65535, "u16"),
                   ("add_int16", -32768, "i16"), ("add_uint32", 2**32 - 1, "u32"), ("add_int32", -2**31, "i32"),
                   ("add_uint64", 2**64 - 1, "u64"), ("add_int64", -2**63, "i64"), ("add_float32", 0.5, "f32"),
                   ("add_float64", 0.1, "f64"), ("add_bool", False, "bool"), ("add_string", "s", "string")]
        for method, value, _ in helpers:
            getattr(w, method)("k." + method, value)
        m = read(w).metadata
        for method, value, t in helpers:
            self.assertEqual((m.type_of("k." + method), m["k." + method]), (t, value), method)
        for method, value in (("add_uint8", 256), ("add_uint32", -1), ("add_int8", 128), ("add_uint64", 2**64),
                              ("add_uint32", 1.5), ("add_float32", "x"), ("add_string", 3)):
            with self.subTest(method=method, value=value):
                with self.assertRaises(skn.InvalidArgumentError):
                    getattr(w, method)("bad." + method, value)


class Arrays(unittest.TestCase):
    def test_nested_arrays_round_trip(self):
        w = skn.GGUFWriter()
        w.add("nested", [[1, 2, 3], ["a", "bc"], [[0.5], [True, False]], []])
        w.add("grid", np.arange(6, dtype=np.uint16).reshape(2, 3))
        w.add_array("deep", [[[7]]], element_type="u64")
        m = read(w).metadata
        v = m["nested"]
        self.assertEqual((m.type_of("nested"), m.array_info("nested")), ("array", ("array", 4)))
        self.assertEqual((v[0].dtype, v[0].tolist()), (np.int32, [1, 2, 3]))
        self.assertEqual(v[1], ["a", "bc"])
        self.assertEqual((v[2][0].dtype, v[2][0].tolist(), v[2][1].tolist()), (np.float32, [0.5], [True, False]))
        self.assertEqual(v[3].size, 0)
        self.assertEqual([r.tolist() for r in m["grid"]], [[0, 1, 2], [3, 4, 5]])
        self.assertEqual(m["grid"][0].dtype, np.uint16)
        self.assertEqual((m["deep"][0][0].dtype, m["deep"][0][0].tolist()), (np.uint64, [7]))
        self.assertEqual([a.tolist() for a in m.value("nested", limit=1)[0:1]], [[1]])

    def test_too_deep_is_refused_with_its_path(self):
        deep = [1]
        for _ in range(9):
            deep = [deep]
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            skn.GGUFWriter().add("deep", deep)
        self.assertIn("deep", cm.exception.message)

    def test_mixed_and_unstorable_items_get_clear_errors(self):
        w = skn.GGUFWriter()
        for value, words in (([1, "a"], "x[1]"), ([[1], 2], "x[1]"), ([1, None], "x[1]"), ([[1, 2], [3, "b"]], "x[1]"),
                             ([1.5, True], "x[1]"), (np.array([1 + 2j]), "complex")):
            with self.subTest(value=value):
                with self.assertRaises(skn.InvalidArgumentError) as cm:
                    w.add("x", value)
                self.assertIn(words, cm.exception.message)
        with self.assertRaises(skn.InvalidArgumentError):
            w.add("x", [300], type="u8")
        with self.assertRaises(skn.InvalidArgumentError):
            w.add("x", np.array([-1], np.int64), type="u32")
        with self.assertRaises(skn.InvalidArgumentError):
            w.add("x", [1.5], type="i32")
        with self.assertRaises(TypeError):
            w.add("x", {"a": 1})
        w.add("x", [1, 2.5])  # ints and floats mix into f32, as gguf-py does
        self.assertEqual(read(w).metadata.array_info("x"), ("f32", 2))


class Tensors(unittest.TestCase):
    def test_shape_comes_from_row_bytes(self):
        w32 = np.random.default_rng(2).standard_normal((3, 2, 768), dtype=np.float32)
        packed = skn.quantize(w32, "q4_k")
        w = skn.GGUFWriter()
        w.add_tensor("experts", packed, "q4_k")
        with self.assertRaises(TypeError):
            w.add_tensor("flat", packed.tobytes(), "q4_k")
        with read(w) as g:
            self.assertEqual(g.tensor_info("experts").shape, (3, 2, 768))
            self.assertEqual(g.data("experts").shape, (3, 2, 432))


class Streaming(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.up = np.random.default_rng(3).standard_normal((5, 768), dtype=np.float32)
        self.norm = np.random.default_rng(4).standard_normal((3, 4), dtype=np.float32)
        self.packed = skn.quantize(self.up, "q4_k")

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name="s.gguf"):
        return os.path.join(self.tmp.name, name)

    def writer(self, declared):
        w = skn.GGUFWriter()
        w.add("general.architecture", "llama")
        w.add("llama.block_count", 1)
        if declared:
            w.declare_tensor("blk.0.ffn_up.weight", "q4_k", self.up.shape)
            w.declare_tensor("norm", "f32", self.norm.shape)
        else:
            w.add_tensor("blk.0.ffn_up.weight", self.packed, "q4_k")
            w.add_tensor("norm", self.norm)
        return w

    def test_the_streamed_file_is_the_written_one(self):
        w = self.writer(declared=True)
        size = w.size
        with w.stream(self.path()) as s:
            flat = self.packed.reshape(-1)
            s.write("blk.0.ffn_up.weight", flat[:1000])
            self.assertEqual(s.position, (0, 1000))
            s.write("blk.0.ffn_up.weight", flat[1000:])
            self.assertEqual(s.position, (1, 0))
            self.assertFalse(os.path.exists(self.path()))  # renamed into place by finish()
            s.write("norm", self.norm)
            self.assertEqual(s.position, (2, 0))
        self.assertTrue(s.finished)
        with open(self.path(), "rb") as f:
            streamed = f.read()
        self.assertEqual(len(streamed), size)
        self.assertEqual(streamed, self.writer(declared=False).to_bytes())
        with skn.GGUF(self.path()) as g:
            np.testing.assert_array_equal(g.array("norm"), self.norm)

    def test_out_of_order_and_overlong_writes(self):
        with self.writer(declared=True).stream(self.path()) as s:
            with self.assertRaises(skn.InvalidArgumentError) as cm:
                s.write("norm", self.norm)
            self.assertIn("blk.0.ffn_up.weight", cm.exception.message)
            with self.assertRaises(skn.InvalidArgumentError):
                s.write("blk.0.ffn_up.weight", np.zeros(self.packed.size + 1, np.uint8))
            s.write("blk.0.ffn_up.weight", self.packed)
            with self.assertRaises(skn.InvalidArgumentError) as cm:
                s.finish()  # norm is missing; the stream stays usable
            self.assertIn("norm", cm.exception.message)
            s.write("norm", self.norm)
        self.assertTrue(os.path.exists(self.path()))

    def test_an_exception_abandons_the_file(self):
        with self.assertRaises(RuntimeError):
            with self.writer(declared=True).stream(self.path()) as s:
                s.write("blk.0.ffn_up.weight", self.packed)
                raise RuntimeError("converter failed")
        self.assertEqual(os.listdir(self.tmp.name), [])
        with self.assertRaises(skn.ClosedError):
            s.write("norm", self.norm)

    def test_declared_writer_cannot_write_in_memory(self):
        w = self.writer(declared=True)
        with self.assertRaises(skn.InvalidArgumentError) as cm:
            w.to_bytes()
        self.assertIn("blk.0.ffn_up.weight", cm.exception.message)
        with self.assertRaises(skn.InvalidArgumentError):
            self.writer(declared=False).stream(self.path())
        with self.assertRaises(skn.InvalidArgumentError):
            w.declare_tensor("bad", "q4_k", (768, 5))  # [in, out]
        with self.assertRaises(skn.FileIOError):
            w.stream(os.path.join(self.tmp.name, "no-such-dir", "x.gguf"))


if __name__ == "__main__":
    unittest.main()
