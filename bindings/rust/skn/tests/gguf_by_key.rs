// SPDX-License-Identifier: MIT
// Metadata read by key (Gguf::get) and tensors added by their [out, in]
// labels (GgufWriter::add_tensor / declare_tensor).
use skn::{Format, Gguf, GgufOptions, GgufWriter, Orientation, Status};

fn every_type() -> Vec<u8> {
    let mut w = GgufWriter::new().unwrap();
    w.add_u8("t.u8", 200).unwrap();
    w.add_i8("t.i8", -100).unwrap();
    w.add_u16("t.u16", 60000).unwrap();
    w.add_i16("t.i16", -30000).unwrap();
    w.add_u32("llama.block_count", 2).unwrap();
    w.add_i32("t.i32", -7).unwrap();
    w.add_u64("t.u64", 1 << 40).unwrap();
    w.add_i64("t.i64", -(1 << 40)).unwrap();
    w.add_f32("t.f32", 0.25).unwrap();
    w.add_f64("t.f64", -1.5e300).unwrap();
    w.add_bool("t.bool", true).unwrap();
    w.add_string("general.architecture", b"llama").unwrap();
    w.add_string("t.latin1", b"caf\xe9").unwrap();
    w.to_bytes().unwrap()
}

#[test]
fn get_reads_every_scalar_type_by_key() {
    let bytes = every_type();
    let g = Gguf::open_memory(&bytes, &GgufOptions::default()).unwrap();
    assert_eq!(g.get::<u8>("t.u8").unwrap(), Some(200));
    assert_eq!(g.get::<i8>("t.i8").unwrap(), Some(-100));
    assert_eq!(g.get::<u16>("t.u16").unwrap(), Some(60000));
    assert_eq!(g.get::<i16>("t.i16").unwrap(), Some(-30000));
    assert_eq!(g.get::<u32>("llama.block_count").unwrap(), Some(2));
    assert_eq!(g.get::<i32>("t.i32").unwrap(), Some(-7));
    assert_eq!(g.get::<u64>("t.u64").unwrap(), Some(1 << 40));
    assert_eq!(g.get::<i64>("t.i64").unwrap(), Some(-(1 << 40)));
    assert_eq!(g.get::<f32>("t.f32").unwrap(), Some(0.25));
    assert_eq!(g.get::<f64>("t.f64").unwrap(), Some(-1.5e300));
    assert_eq!(g.get::<bool>("t.bool").unwrap(), Some(true));
    assert_eq!(g.get::<&str>("general.architecture").unwrap(), Some("llama"));
    assert_eq!(g.get::<&[u8]>("t.latin1").unwrap(), Some(&b"caf\xe9"[..]));
    // The by-index getters agree.
    let i = g.find_key("llama.block_count").unwrap().unwrap();
    assert_eq!(g.get_u32(i).unwrap(), 2);
}

#[test]
fn get_of_a_missing_key_is_none_and_a_default_applies() {
    let bytes = every_type();
    let g = Gguf::open_memory(&bytes, &GgufOptions::default()).unwrap();
    assert_eq!(g.get::<u32>("llama.expert_count").unwrap(), None);
    let experts: u32 = g.get("llama.expert_count").unwrap().unwrap_or(0);
    assert_eq!(experts, 0);
}

#[test]
fn get_of_another_type_names_the_key_and_the_files_type() {
    let bytes = every_type();
    let g = Gguf::open_memory(&bytes, &GgufOptions::default()).unwrap();
    // No conversion, not even u32 -> u64.
    let e = g.get::<u64>("llama.block_count").unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert!(e.message().contains("llama.block_count") && e.message().contains("u32"), "{}", e);
    let e = g.get::<u32>("general.architecture").unwrap_err();
    assert!(e.message().contains("general.architecture") && e.message().contains("string"), "{}", e);
    let e = g.get::<&str>("t.u8").unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    // A string that is not UTF-8 is refused as &str, with the way out.
    let e = g.get::<&str>("t.latin1").unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert!(e.message().contains("t.latin1") && e.message().contains("&[u8]"), "{}", e);
    let e = g.get::<u32>("bad\0key").unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
}

#[test]
fn add_tensor_takes_out_in_and_the_file_stores_ne_reversed() {
    let (out, input) = (3i64, 3 * 256i64); // three blocks per row, three rows
    let w: Vec<f32> = (0..out * input).map(|i| ((i * 37 % 101) as f32 / 50.0) - 1.0).collect();
    let packed = skn::quantize(Format::Q4_K, &w, out, input).unwrap();
    let experts = [packed.clone(), packed.clone()].concat();
    let mut writer = GgufWriter::new().unwrap();
    writer.add_tensor("w", Format::Q4_K, &[out, input], &packed).unwrap();
    writer.add_tensor("experts", Format::Q4_K, &[2, out, input], &experts).unwrap();
    // [in, out] is refused: its last (block) axis is not whole blocks.
    let e = writer.add_tensor("swapped", Format::Q4_K, &[input, out], &packed).unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert!(e.message().contains("[768, 3] (labelled [out, in]; the file's ne is [3, 768])"), "{}", e);
    let bytes = writer.to_bytes().unwrap();
    // declare_tensor labels the same way (a streamed file).
    let mut declared = GgufWriter::new().unwrap();
    declared.declare_tensor("declared", Format::Q4_K, &[2, out, input]).unwrap();
    let path = std::env::temp_dir().join(format!("skn-rust-{}-by-key.gguf", std::process::id()));
    let mut stream = declared.begin_stream(&path).unwrap();
    stream.write("declared", &experts).unwrap();
    stream.finish().unwrap();
    drop(stream);
    let streamed = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();

    let g = Gguf::open_memory(&bytes, &GgufOptions::default()).unwrap();
    let stored =
        Gguf::open_memory(&bytes, &GgufOptions { orientation: Orientation::AsStored, ..Default::default() }).unwrap();
    let s = Gguf::open_memory(&streamed, &GgufOptions::default()).unwrap();
    assert_eq!(s.tensor_info(0).unwrap().shape, vec![2, out, input]);
    assert_eq!(s.tensor_info(0).unwrap().ne, vec![input, out, 2]);
    for (name, shape) in [("w", vec![out, input]), ("experts", vec![2, out, input])] {
        let info = g.tensor_info(g.find_tensor(name).unwrap().unwrap()).unwrap();
        let reversed: Vec<i64> = shape.iter().rev().copied().collect();
        assert_eq!(info.shape, shape, "{}", name);
        assert_eq!(info.ne, reversed, "{}: the file's ne", name);
        let as_stored = stored.tensor_info(stored.find_tensor(name).unwrap().unwrap()).unwrap();
        assert_eq!(as_stored.shape, reversed, "{}", name);
    }
    // The bytes mean the weight that was quantized, read back as [out, in].
    let view = g.tensor_view(g.find_tensor("w").unwrap().unwrap()).unwrap();
    assert_eq!(view.to_f32().unwrap(), skn::dequantize(Format::Q4_K, &packed, out, input).unwrap());
}
