// SPDX-License-Identifier: MIT
// Writing GGUF files and reading them back: metadata, zero-copy tensor
// bytes and views, streaming, and an imatrix feeding the quantizer.
use skn::{Format, Gguf, GgufOptions, GgufWriter, Imatrix, Order, Status};

fn weight(rows: usize, cols: usize) -> Vec<f32> {
    (0..rows * cols).map(|i| ((i * 37 % 101) as f32 / 50.0) - 1.0).collect()
}

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("skn-rust-{}-{}", std::process::id(), name))
}

#[test]
fn written_file_reads_back_zero_copy() {
    let (out, input) = (5i64, 3 * 256i64);
    let w = weight(out as usize, input as usize);
    let packed = skn::quantize(Format::Q4_K, &w, out, input).unwrap();
    let mut writer = GgufWriter::new().unwrap();
    writer.add_string("general.name", b"rust test").unwrap();
    writer.add_u32("test.blocks", 3).unwrap();
    writer.add_f32("test.scale", 0.5).unwrap();
    writer.add_bool("test.flag", true).unwrap();
    writer.add_string_array("test.vocab", &["a", "bc", ""]).unwrap();
    writer.add_i32_array("test.ids", &[7, -8, 9]).unwrap();
    writer.add_tensor("blk.0.w", Format::Q4_K, &[out, input], &packed).unwrap();
    let bytes = writer.to_bytes().unwrap();
    assert_eq!(bytes.len() as u64, writer.size().unwrap());
    drop(writer);

    let g = Gguf::open_memory(&bytes, &GgufOptions::default()).unwrap();
    assert_eq!(g.version(), 3);
    assert_eq!(g.tensor_count(), 1);
    let k = g.find_key("general.name").unwrap().unwrap();
    assert_eq!(g.key(k).unwrap(), "general.name");
    assert_eq!(g.get_string(k).unwrap(), b"rust test");
    let blocks = g.find_key("test.blocks").unwrap().unwrap();
    assert_eq!(g.get_u32(blocks).unwrap(), 3);
    // typed getters do not convert
    let e = g.get_u64(blocks).unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert!(e.message().contains("u32"), "{}", e);
    assert_eq!(g.get_f32(g.find_key("test.scale").unwrap().unwrap()).unwrap(), 0.5);
    assert!(g.get_bool(g.find_key("test.flag").unwrap().unwrap()).unwrap());
    let vocab = g.find_key("test.vocab").unwrap().unwrap() as u64;
    assert_eq!(g.array_info(vocab).unwrap(), (skn::sys::SKN_GGUF_TYPE_STRING, 3));
    assert_eq!(skn::gguf_type_name(g.array_info(vocab).unwrap().0), "string");
    assert_eq!(g.array_string(vocab, 1).unwrap(), b"bc");
    assert_eq!(g.array_string(vocab, 2).unwrap(), b"");
    assert_eq!(g.array_string(vocab, 3).unwrap_err().status(), Status::InvalidArgument);
    let ids = g.array_bytes(g.find_key("test.ids").unwrap().unwrap() as u64).unwrap();
    let ids: Vec<i32> = ids.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    assert_eq!(ids, vec![7, -8, 9]);
    assert_eq!(g.find_key("no.such.key").unwrap(), None);

    let t = g.find_tensor("blk.0.w").unwrap().unwrap();
    let info = g.tensor_info(t).unwrap();
    assert_eq!((info.shape.clone(), info.ne.clone()), (vec![out, input], vec![input, out]));
    assert_eq!(info.format, Format::Q4_K);
    assert!(info.supported);
    assert_eq!(info.type_name, "Q4_K");
    let data = g.tensor_data(t).unwrap();
    assert_eq!(data, &packed[..]);
    // zero-copy: the tensor's bytes are inside the buffer the reader was opened on
    let range = bytes.as_ptr_range();
    assert!(range.contains(&data.as_ptr()), "tensor data was copied");
    assert_eq!(g.tensor_info(1).unwrap_err().status(), Status::InvalidArgument);

    let view = g.tensor_view(t).unwrap();
    drop(g); // the view keeps what it needs; it borrows only `bytes`
    assert_eq!(view.shape(), vec![out, input]);
    assert_eq!(view.order(), Order::RowMajor);
    assert_eq!(view.to_f32().unwrap(), skn::dequantize(Format::Q4_K, &packed, out, input).unwrap());
}

#[test]
fn files_write_stream_and_map() {
    let (out, input) = (3i64, 96i64);
    let packed = skn::quantize(Format::Q8_0, &weight(3, 96), out, input).unwrap();
    let path = temp_path("written.gguf");
    let mut writer = GgufWriter::new().unwrap();
    writer.add_tensor("w", Format::Q8_0, &[out, input], &packed).unwrap();
    writer.write_file(&path).unwrap();
    let whole = std::fs::read(&path).unwrap();

    let mut declared = GgufWriter::new().unwrap();
    declared.declare_tensor("w", Format::Q8_0, &[out, input]).unwrap();
    assert_eq!(declared.to_bytes().unwrap_err().status(), Status::InvalidArgument);
    let streamed_path = temp_path("streamed.gguf");
    let mut stream = declared.begin_stream(&streamed_path).unwrap();
    drop(declared);
    let half = packed.len() / 2;
    stream.write("w", &packed[..half]).unwrap();
    assert_eq!(stream.position(), (0, half as u64));
    let e = stream.finish().unwrap_err();
    assert!(e.message().contains("\"w\"") || e.message().contains("w"), "{}", e);
    assert_eq!(stream.write("x", &packed[half..]).unwrap_err().status(), Status::InvalidArgument);
    stream.write("w", &packed[half..]).unwrap();
    stream.finish().unwrap();
    drop(stream);
    assert_eq!(std::fs::read(&streamed_path).unwrap(), whole, "streamed and whole files differ");

    let view = {
        let g = Gguf::open(&path, &GgufOptions { read_into_memory: true, ..Default::default() }).unwrap();
        let mapped = Gguf::open(&path, &GgufOptions::default()).unwrap();
        assert_eq!(mapped.tensor_data(0).unwrap(), &packed[..]);
        g.tensor_view(0).unwrap()
    };
    // a file-backed view is View<'static>: it outlives the reader
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&streamed_path).unwrap();
    assert_eq!(view.to_f32().unwrap(), skn::dequantize(Format::Q8_0, &packed, out, input).unwrap());
}

#[test]
fn imatrix_feeds_the_quantizer() {
    let (rows, cols) = (4i64, 256i64);
    // A GGUF imatrix as llama-imatrix writes one: sums of squares and counts.
    let sums: Vec<f32> = (0..cols).map(|c| 1.0 + (c % 17) as f32).collect();
    let counts = [4.0f32];
    let to_bytes = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    let mut w = GgufWriter::new().unwrap();
    w.add_string_array("imatrix.datasets", &["calibration.txt"]).unwrap();
    w.add_u32("imatrix.chunk_count", 1).unwrap();
    w.add_u32("imatrix.chunk_size", 512).unwrap();
    w.add_tensor("blk.0.w.in_sum2", Format::F32, &[1, cols], &to_bytes(&sums)).unwrap();
    w.add_tensor("blk.0.w.counts", Format::F32, &[1], &to_bytes(&counts)).unwrap();
    let bytes = w.to_bytes().unwrap();

    let im = Imatrix::open_memory(&bytes).unwrap();
    drop(bytes); // the imatrix owns its copy
    assert_eq!(im.len(), 1);
    let e = im.find("blk.0.w").unwrap().unwrap();
    assert_eq!(im.find("blk.1.w").unwrap(), None);
    let entry = im.entry(e).unwrap();
    assert_eq!((entry.name.as_str(), entry.values_per_row, entry.matrices), ("blk.0.w", cols, 1));
    let importance = im.values(e, None).unwrap();
    assert_eq!(importance, &sums.iter().map(|s| s / 4.0).collect::<Vec<f32>>()[..]);
    assert_eq!(im.values(e, Some(1)).unwrap_err().status(), Status::InvalidArgument);

    let src = weight(rows as usize, cols as usize);
    let opts = skn::QuantizeOptions { importance: Some(importance), threads: 2 };
    let with = skn::quantize_with_options(Format::Q4_K, &src, rows, cols, &opts).unwrap();
    assert_eq!(with.len(), skn::quantized_size(Format::Q4_K, rows, cols).unwrap());
    // IQ2_XXS quantizes only with importance weights
    let iq = skn::quantize_with_options(Format::IQ2_XXS, &src, rows, cols, &opts).unwrap();
    assert_eq!(iq.len(), skn::quantized_size(Format::IQ2_XXS, rows, cols).unwrap());
    assert_eq!(skn::quantize(Format::IQ2_XXS, &src, rows, cols).unwrap_err().status(), Status::InvalidArgument);
}
