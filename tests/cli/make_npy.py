#!/usr/bin/env python3
"""Writes a small .npy (v1.0, C order) from values given on the command line, with the stdlib only.
Usage: make_npy.py OUT DESCR SHAPE VALUES...   e.g. make_npy.py a.npy '<f4' 2,2 1 2 3 4"""
import struct
import sys

out, descr, shape_text, *values = sys.argv[1:]
shape = tuple(int(d) for d in shape_text.split(",") if d)
codes = {"<f4": "f", "<f2": "e", "<f8": "d", "<i4": "i", "|b1": "?", "|i1": "b", "|u1": "B",
         "<i2": "h", "<u2": "H", "<u4": "I", "<i8": "q", "<u8": "Q", "<c8": "ff", "<c16": "dd"}
header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, repr(shape))
pad = 64 - (10 + len(header) + 1) % 64
header = header + " " * pad + "\n"
if descr == "|b1":
    data = struct.pack("<%d?" % len(values), *[v in ("1", "True", "true") for v in values])
elif descr in ("<i4", "|i1", "|u1", "<i2", "<u2", "<u4", "<i8", "<u8"):
    data = struct.pack("<%d%s" % (len(values), codes[descr]), *[int(v) for v in values])
elif descr in ("<c8", "<c16"):  # each value becomes real part v, imaginary part -v
    data = b"".join(struct.pack("<" + codes[descr], float(v), -float(v)) for v in values)
else:
    data = struct.pack("<%d%s" % (len(values), codes[descr]), *[float(v) for v in values])
with open(out, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)
