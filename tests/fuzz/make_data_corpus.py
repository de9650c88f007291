#!/usr/bin/env python3
"""Writes tests/fuzz/data-corpus: the seed files of the data-file fuzzer and test_data_corpus.

Well-formed tables of each kind the lab reads (CSV with ',', ';', tabs or spaces, .npy, .npz) and the ways such files
go wrong (empty, ragged, text, NaN, Inf, huge values, other dtypes and byte orders, shapes that overflow, truncated
data, damaged archives). Standard library only (struct, zipfile): no NumPy needed. Run from the repository root:
    python3 tests/fuzz/make_data_corpus.py
The files are checked in; the script says how each was made. Inputs the fuzzer finds are added beside them.
"""
import io
import math
import os
import random
import struct
import zipfile

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data-corpus")


def rows(n=50, cols=3, seed=1):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        x = rng.gauss(0, 1)
        out.append([x] + [x + 0.5 * rng.gauss(0, 1) for _ in range(cols - 1)])
    return out


def csv(sep=",", header=True, newline="\n", data=None):
    data = rows() if data is None else data
    lines = [sep.join("c%d" % i for i in range(len(data[0])))] if header else []
    lines += [sep.join("%.6g" % v for v in r) for r in data]
    return (newline.join(lines) + newline).encode()


def npy(descr="<f8", shape=(50, 3), fortran=False, payload=None, version=1, header_extra=""):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }%s" % (
        descr, "True" if fortran else "False", repr(tuple(shape)), header_extra)
    if payload is None:
        fmt = {"<f8": "<d", "<f4": "<f", "<i4": "<i", "<i8": "<q", ">f8": ">d", "|u1": "<B"}[descr]
        count = 1
        for s in shape:
            count *= s
        vals = [v for r in rows(max(1, count // 3 + 1), 3) for v in r][:count]
        if descr in ("<i4", "<i8", "|u1"):
            vals = [int(abs(v) * 10) for v in vals]
        payload = struct.pack(fmt[0] + fmt[1] * count, *vals) if count else b""
    prefix = 10 if version == 1 else 12
    pad = (64 - (prefix + len(header) + 1) % 64) % 64
    header = header + " " * pad + "\n"
    length = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + length + header.encode() + payload


def npz(members, method=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members:
            z.writestr(name, data)
    return buf.getvalue()


def main():
    os.makedirs(OUT, exist_ok=True)
    good = rows()
    files = {
        # CSV, readable
        "csv-header.csv": csv(),
        "csv-no-header.csv": csv(header=False),
        "csv-semicolons.csv": csv(sep=";"),
        "csv-tabs.tsv": csv(sep="\t"),
        "csv-spaces.txt": csv(sep="   "),
        "csv-crlf.csv": csv(newline="\r\n"),
        "csv-bom.csv": b"\xef\xbb\xbf" + csv(),
        "csv-comments.csv": b"# made by make_data_corpus.py\n" + csv() + b"# the end\n",
        "csv-wide.csv": csv(data=rows(3, 2000)),
        # CSV, refused
        "csv-empty.csv": b"",
        "csv-header-only.csv": b"a,b,c\n",
        "csv-one-row.csv": b"a,b\n1,2\n",
        "csv-ragged.csv": csv() + b"1,2\n",
        "csv-text-cell.csv": csv() + b"1,abc,3\n",
        "csv-nan.csv": csv() + b"nan,1,2\n",
        "csv-inf.csv": csv() + b"1,-inf,2\n",
        "csv-1e308.csv": csv() + b"1e308,1,2\n",
        "csv-beyond-1e30.csv": csv() + b"2e30,1,2\n",
        "csv-hex.csv": csv() + b"0x10,1,2\n",
        "csv-trailing-comma.csv": b"1,2,\n3,4,\n5,6,\n",
        "csv-only-commas.csv": b",,,\n,,,\n,,,\n",
        "csv-nul-bytes.csv": csv()[:40] + b"\x00\x00" + csv()[40:],
        "csv-bad-utf8.csv": csv() + b"\xff\xfe,1,2\n",
        "csv-quoted.csv": b'"a","b"\n"1","2"\n"3","4"\n',
        "csv-two-headers.csv": b"a,b\nc,d\n1,2\n3,4\n",
        # .npy, readable
        "npy-f8.npy": npy(),
        "npy-f4.npy": npy("<f4"),
        "npy-i4.npy": npy("<i4"),
        "npy-1d.npy": npy(shape=(50,)),
        # .npy, refused
        "npy-big-endian.npy": npy(">f8"),
        "npy-fortran.npy": npy(fortran=True),
        "npy-3d.npy": npy(shape=(5, 5, 2)),
        "npy-0d.npy": npy(shape=(), payload=struct.pack("<d", 1.0)),
        "npy-no-rows.npy": npy(shape=(0, 3), payload=b""),
        "npy-shape-overflow.npy": npy(shape=(2 ** 61, 8), payload=b"\0" * 64),
        "npy-shape-negative.npy": npy(shape=(-1, 3), payload=b"\0" * 64),
        "npy-truncated.npy": npy()[:-100],
        "npy-bad-magic.npy": b"\x93NUMPZ" + npy()[6:],
        "npy-header-newline.npy": npy(header_extra="\n'x': 1"),
        "npy-header-too-long.npy": npy()[:8] + struct.pack("<H", 65535) + npy()[10:200],
        "npy-bool.npy": npy("|b1", payload=b"\x01" * 150),
        "npy-complex.npy": npy("<c16", payload=b"\0" * 2400),
        "npy-object.npy": npy("|O", payload=b"\0" * 1200),
        "npy-nan.npy": npy(payload=struct.pack("<150d", *([math.nan] + [0.5] * 149))),
        "npy-v2.npy": npy(version=2),
        "npy-version-9.npy": npy()[:6] + b"\x09\x00" + npy()[8:],
        # .npz
        "npz-good.npz": npz([("x.npy", npy())]),
        "npz-deflated.npz": npz([("x.npy", npy())], zipfile.ZIP_DEFLATED),
        "npz-text-then-npy.npz": npz([("readme.txt", b"hello"), ("x.npy", npy())]),
        "npz-no-npy.npz": npz([("readme.txt", b"hello")]),
        "npz-empty-archive.npz": npz([]),
        "npz-not-a-zip.npz": csv(),
        "npz-truncated.npz": npz([("x.npy", npy())])[:300],
        "npz-broken-member.npz": npz([("x.npy", npy("<f4")[:-7])]),
    }
    # A stored member whose bytes were changed after its CRC was written: libzip must report it.
    damaged = bytearray(npz([("x.npy", npy())]))
    at = damaged.find(b"\x93NUMPY") + 300
    damaged[at] ^= 0xFF
    files["npz-bad-crc.npz"] = bytes(damaged)
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print("%d files in %s" % (len(files), OUT))


if __name__ == "__main__":
    main()
