#!/usr/bin/env python3
"""Checks the .pt files `dumpcmp convert -t pt` wrote against the .npy files of `-t npy`.

Without torch (standard library only): each .pt is a zip of archive/{data.pkl, byteorder, data/0,
version}; data.pkl unpickles, with only the names torch.load(weights_only=True) allows, to
torch._utils._rebuild_tensor_v2(storage, 0, shape, C-order strides, False, OrderedDict()); the
storage type matches the .npy dtype, data/0 holds the .npy's bytes and the shape is the .npy's
(or [] where msaccucmp saves a scalar's .npy as (1,)). With torch importable, torch.load must
give the same. Usage: pt_check.py PT_DIR NPY_DIR  -> exit 0 when every file agrees.
"""
import ast
import collections
import os
import pickle
import sys
import zipfile

STORAGE_DESCR = {"FloatStorage": "<f4", "HalfStorage": "<f2", "DoubleStorage": "<f8",
                 "CharStorage": "|i1", "ByteStorage": "|u1", "ShortStorage": "<i2",
                 "IntStorage": "<i4", "LongStorage": "<i8", "BoolStorage": "|b1",
                 "ComplexFloatStorage": "<c8", "ComplexDoubleStorage": "<c16"}


class Storage(str):
    pass


def rebuild(storage, offset, shape, stride, requires_grad, hooks, *rest):
    return {"storage": storage, "offset": offset, "shape": shape, "stride": stride,
            "requires_grad": requires_grad, "hooks": hooks}


class Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return rebuild
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if module == "torch" and name in STORAGE_DESCR:
            return Storage(name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed")

    def persistent_load(self, pid):
        return pid


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    major = data[6]
    hlen = int.from_bytes(data[8:10] if major == 1 else data[8:12], "little")
    start = (10 if major == 1 else 12) + hlen
    header = ast.literal_eval(data[(10 if major == 1 else 12):start].decode("latin1"))
    return header["descr"], tuple(header["shape"]), data[start:]


def check(pt, npy):
    with zipfile.ZipFile(pt) as z:
        names = z.namelist()
        assert names == ["archive/data.pkl", "archive/byteorder", "archive/data/0",
                         "archive/version"], names
        assert z.read("archive/byteorder") == b"little"
        info = Unpickler(z.open("archive/data.pkl")).load()
        data = z.read("archive/data/0")
        header = z.getinfo("archive/data/0").header_offset
    tag, storage, key, location, numel = info["storage"]
    descr, shape, payload = read_npy(npy)
    assert (tag, key, location) == ("storage", "0", "cpu")
    assert STORAGE_DESCR[storage] == descr, (storage, descr)
    assert data == payload, "data differs"
    assert numel * int(descr[2:]) == len(data)
    got = tuple(info["shape"])
    assert got == shape or (got == () and shape == (1,)), (got, shape)
    stride, step = [], 1
    for d in reversed(got):
        stride.insert(0, step)
        step *= d
    assert tuple(info["stride"]) == tuple(stride) and info["offset"] == 0
    assert info["requires_grad"] is False and info["hooks"] == collections.OrderedDict()
    with open(pt, "rb") as f:  # records 64-byte aligned as torch aligns them
        f.seek(header + 26)
        name_len = int.from_bytes(f.read(2), "little")
        extra_len = int.from_bytes(f.read(2), "little")
    assert (header + 30 + name_len + extra_len) % 64 == 0, "data/0 is not 64-byte aligned"
    return got


def main(pt_dir, npy_dir):
    try:
        import torch
        import numpy
    except ImportError:
        torch = None
    files = sorted(f for f in os.listdir(pt_dir) if f.endswith(".pt"))
    for f in files:
        npy = os.path.join(npy_dir, f[:-3] + ".npy")
        shape = check(os.path.join(pt_dir, f), npy)
        if torch is not None:
            t = torch.load(os.path.join(pt_dir, f))  # weights_only=True in torch >= 2.6
            n = numpy.load(npy).reshape(shape)
            assert tuple(t.shape) == shape and numpy.array_equal(t.numpy(), n, equal_nan=n.dtype.kind in "fc"), f
    if not files:
        sys.exit("no .pt files")
    print(f"{len(files)} .pt files agree with their .npy" +
          (", torch.load checked" if torch is not None else " (torch not installed: torch.load not checked)"))


if __name__ == "__main__":
    main(*sys.argv[1:3])
