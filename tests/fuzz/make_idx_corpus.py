#!/usr/bin/env python3
"""Writes tests/fuzz/idx-corpus: gzipped IDX files, sound and broken in every way issue 80's probe found, named
<what>.idx1.gz or <what>.idx3.gz (the dimensions the reader is asked for). test_idx_files replays them; fuzz_idx
starts from them. Run from the project root: python3 tests/fuzz/make_idx_corpus.py"""
import gzip
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "idx-corpus")


def idx(shape, values, kind=0x08):
    return bytes([0, 0, kind, len(shape)]) + b"".join(struct.pack(">I", s) for s in shape) + bytes(values)


def gz(raw):
    return gzip.compress(raw, mtime=0)


images = [(i * 37) % 256 for i in range(3 * 28 * 28)]
files = {
    "sound-images.idx3.gz": gz(idx([3, 28, 28], images)),
    "sound-labels.idx1.gz": gz(idx([3], [0, 9, 4])),
    "gzip-cut-short.idx3.gz": gz(idx([3, 28, 28], images))[:200],
    "not-gzip.idx3.gz": idx([3, 28, 28], images),
    "empty.idx1.gz": b"",
    "gzip-bad-crc.idx1.gz": gz(idx([3], [0, 1, 2]))[:-8] + b"\0\0\0\0" + gz(idx([3], [0, 1, 2]))[-4:],
    "not-idx.idx1.gz": gz(b"hello, world"),
    "floats.idx3.gz": gz(idx([3, 28, 28], images, 0x0D)),
    "dims-mismatch.idx3.gz": gz(idx([3], [0, 1, 2])),
    "one-by-one.idx3.gz": gz(idx([3, 1, 1], [1, 2, 3])),
    "sizes-overflow.idx3.gz": gz(idx([0xFFFFFFFF] * 3, [])),
    "claims-5-gb.idx3.gz": gz(idx([6400000, 28, 28], images)),
    "values-short.idx3.gz": gz(idx([4, 28, 28], images)),
    "values-beyond.idx1.gz": gz(idx([2], [0, 1, 2])),
    "no-images.idx3.gz": gz(idx([0, 28, 28], [])),
    "header-cut.idx3.gz": gz(bytes([0, 0, 8, 3, 0, 0])),
}
os.makedirs(OUT, exist_ok=True)
for name, data in files.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print(f"wrote {len(files)} files to {OUT}")
