# SPDX-License-Identifier: MIT
"""A small GGUF writer and reader for the tool tests, written from the GGUF
specification (docs/gguf.md), independent of libskn: the tests build their
inputs with it and read the tools' outputs back with it."""
import struct

# Metadata value types.
U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
_SCALAR = {U8: "<B", I8: "<b", U16: "<H", I16: "<h", U32: "<I", I32: "<i", F32: "<f", BOOL: "<?", U64: "<Q",
           I64: "<q", F64: "<d"}
# Tensor types used here, with (block elements, block bytes).
T_F32, T_F16, T_Q8_0, T_I8, T_I16, T_I32, T_I64, T_F64 = 0, 1, 8, 24, 25, 26, 27, 28
TYPE_GEOMETRY = {0: (1, 4), 1: (1, 2), 8: (32, 34), 24: (1, 1), 25: (1, 2), 26: (1, 4), 27: (1, 8), 28: (1, 8),
                 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 10: (256, 84), 11: (256, 110),
                 12: (256, 144), 13: (256, 176), 14: (256, 210), 30: (1, 2), 20: (32, 18), 23: (256, 136),
                 39: (32, 17), 16: (256, 66), 17: (256, 74), 18: (256, 98), 21: (256, 110), 22: (256, 82),
                 # the row-interleaved types: (block elements, bytes) of one row's share of a block
                 202: (32, 18), 206: (32, 22), 208: (32, 34), 210: (256, 84), 211: (256, 110), 212: (256, 144),
                 213: (256, 176), 214: (256, 210), 216: (256, 66), 217: (256, 74), 218: (256, 98), 220: (32, 18),
                 221: (256, 110), 222: (256, 82), 223: (256, 136), 230: (2, 4), 353: (32, 17)}


def _s(text):
    b = text.encode() if isinstance(text, str) else text
    return struct.pack("<Q", len(b)) + b


def _value(t, v):
    if t == STR:
        return _s(v)
    if t == ARR:
        et, items = v
        return struct.pack("<IQ", et, len(items)) + b"".join(_value(et, x) for x in items)
    return struct.pack(_SCALAR[t], v)


def tensor_bytes(type_id, ne):
    elems, size = TYPE_GEOMETRY[type_id]
    n = 1
    for d in ne:
        n *= d
    return n // elems * size


def write(path, kvs, tensors, alignment=32):
    """kvs: [(key, type, value)] (arrays: (ARR, (element_type, [values])));
    tensors: [(name, type_id, ne, data bytes)], written in order."""
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs))
    for k, t, v in kvs:
        head += _s(k) + struct.pack("<I", t) + _value(t, v)
    offset, body = 0, []
    for name, type_id, ne, data in tensors:
        assert len(data) == tensor_bytes(type_id, ne), name
        head += _s(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", n) for n in ne)
        head += struct.pack("<IQ", type_id, offset)
        pad = (-len(data)) % alignment
        body.append(data + b"\0" * pad)
        offset += len(data) + pad
    head += b"\0" * ((-len(head)) % alignment)
    with open(path, "wb") as f:
        f.write(head)
        for b in body:
            f.write(b)


class Reader:
    """kvs: [(key, type, value)] in file order (arrays as (element_type,
    [values])); tensors: [(name, type_id, ne, offset, size)] in file order;
    data(name) the tensor's bytes."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.raw = f.read()
        self.pos = 0
        assert self._take(4) == b"GGUF", path
        version, nt, nkv = struct.unpack("<IQQ", self._take(20))
        assert version in (2, 3)
        self.kvs = []
        for _ in range(nkv):
            key = self._str().decode()
            t = self._u32()
            self.kvs.append((key, t, self._read_value(t)))
        alignment = self.get("general.alignment", 32)
        infos = []
        for _ in range(nt):
            name = self._str().decode()
            rank = self._u32()
            ne = [struct.unpack("<Q", self._take(8))[0] for _ in range(rank)]
            type_id = self._u32()
            off = struct.unpack("<Q", self._take(8))[0]
            infos.append((name, type_id, ne, off))
        self.data_offset = self.pos + (-self.pos) % alignment
        self.tensors = [(n, t, ne, self.data_offset + off, tensor_bytes(t, ne) if t in TYPE_GEOMETRY else None)
                        for n, t, ne, off in infos]

    def _take(self, n):
        b = self.raw[self.pos:self.pos + n]
        assert len(b) == n, "truncated"
        self.pos += n
        return b

    def _u32(self):
        return struct.unpack("<I", self._take(4))[0]

    def _str(self):
        n = struct.unpack("<Q", self._take(8))[0]
        return self._take(n)

    def _read_value(self, t):
        if t == STR:
            return self._str().decode(errors="replace")
        if t == ARR:
            et = self._u32()
            n = struct.unpack("<Q", self._take(8))[0]
            return (et, [self._read_value(et) for _ in range(n)])
        fmt = _SCALAR[t]
        return struct.unpack(fmt, self._take(struct.calcsize(fmt)))[0]

    def keys(self):
        return [k for k, _, _ in self.kvs]

    def get(self, key, default=None):
        for k, _, v in self.kvs:
            if k == key:
                return v
        return default

    def kv(self, key):
        for item in self.kvs:
            if item[0] == key:
                return item
        return None

    def tensor(self, name):
        for t in self.tensors:
            if t[0] == name:
                return t
        return None

    def data(self, name):
        _, _, _, off, size = self.tensor(name)
        return self.raw[off:off + size]
