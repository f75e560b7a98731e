"""Writes poetgrad's reference fixtures: a binary file of named float32 tensors.

Layout (little-endian), repeated until the end of the file:
  u32 name length, name bytes (UTF-8), u32 rank, u64 dims[rank], f32 values (row-major).
tests/fixture.hpp reads it back.
"""
import struct

import numpy as np


def write_fixture(path, tensors):
    """tensors: dict or list of (name, array-like); values are stored as float32."""
    items = tensors.items() if isinstance(tensors, dict) else tensors
    with open(path, "wb") as f:
        for name, value in items:
            a = np.ascontiguousarray(np.asarray(value, dtype=np.float32))
            raw = name.encode("utf-8")
            f.write(struct.pack("<I", len(raw)))
            f.write(raw)
            f.write(struct.pack("<I", a.ndim))
            f.write(struct.pack("<%dQ" % a.ndim, *a.shape))
            f.write(a.astype("<f4").tobytes())
