"""What the make_case.py scripts of the msaccucmp_fusion cases share: the dump header's format and
data-type codes and its DumpData message (built at run time), GE's device layouts (docs/layouts.md),
and writers of Ascend binary dumps and offline-model JSON. Only Python 3, numpy and protobuf.
"""
import json
import os
import shutil
import struct

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

TS = 1700000000000000

# Format and data-type codes of the dump header (dump_data.proto's OutputFormat / OutputDataType).
FMT = {"NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "NC1HWC0_C04": 12,
       "FRACTAL_Z_C04": 13, "HWCN": 16, "C1HWNCoC0": 25, "FRACTAL_NZ": 29, "NCDHW": 30,
       "NDC1HWC0": 32, "FRACTAL_Z_3D": 33}
DT = {np.dtype(np.float32): 1, np.dtype(np.float16): 2}
DT_JSON = {np.float32: "DT_FLOAT", np.float16: "DT_FLOAT16"}


def _messages():
    """The header messages, built at run time (field numbers as in host/io/dump_data.proto)."""
    f = descriptor_pb2.FileDescriptorProto(name="case_tools_dump.proto", package="case_tools",
                                           syntax="proto3")
    T = descriptor_pb2.FieldDescriptorProto
    def msg(name, fields):
        m = f.message_type.add(name=name)
        for fname, num, ftype, label, tname in fields:
            fd = m.field.add(name=fname, number=num, type=ftype, label=label)
            if tname:
                fd.type_name = ".case_tools." + tname
    opt, rep = T.LABEL_OPTIONAL, T.LABEL_REPEATED
    msg("Shape", [("dim", 1, T.TYPE_UINT64, rep, None)])
    tensor = [("data_type", 1, T.TYPE_INT32, opt, None), ("format", 2, T.TYPE_INT32, opt, None),
              ("shape", 3, T.TYPE_MESSAGE, opt, "Shape")]
    msg("OpOutput", tensor + [("size", 6, T.TYPE_UINT64, opt, None),
                              ("original_shape", 7, T.TYPE_MESSAGE, opt, "Shape")])
    msg("OpInput", tensor + [("size", 5, T.TYPE_UINT64, opt, None),
                             ("original_shape", 6, T.TYPE_MESSAGE, opt, "Shape")])
    msg("DumpData", [("version", 1, T.TYPE_STRING, opt, None), ("dump_time", 2, T.TYPE_UINT64, opt, None),
                     ("output", 3, T.TYPE_MESSAGE, rep, "OpOutput"),
                     ("input", 4, T.TYPE_MESSAGE, rep, "OpInput"),
                     ("op_name", 6, T.TYPE_STRING, opt, None)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    get = getattr(message_factory, "GetMessageClass", None) or message_factory.MessageFactory(pool).GetPrototype
    return get(pool.FindMessageTypeByName("case_tools.DumpData"))


DumpData = _messages()


def ceil_div(a, b):
    return -(-a // b)


# ---- device layouts, from a host-layout value g -------------------------------------------------
def nc1hwc0(g, c0=16):  # g: NCHW -> (N, C1, H, W, C0)
    n, c, h, w = g.shape
    a = np.zeros((n, ceil_div(c, c0), h, w, c0), g.dtype)
    for ci in range(c):
        a[:, ci // c0, :, :, ci % c0] = g[:, ci]
    return a


def fractal_z(g):  # g: NCHW weight -> (C1*H*W, N1, 16, 16), [c1*H*W + h*W + w, n // 16, n % 16, c % 16]
    n, c, h, w = g.shape
    a = np.zeros((ceil_div(c, 16) * h * w, ceil_div(n, 16), 16, 16), g.dtype)
    for ci in range(c):
        for ni in range(n):
            a[(ci // 16) * h * w:(ci // 16 + 1) * h * w, ni // 16, ni % 16, ci % 16] = g[ni, ci].reshape(-1)
    return a


def fractal_nz(g):  # g: (..., M, K) -> (..., K1, M1, 16, 16)
    *b, m, k = g.shape
    a = np.zeros(tuple(b) + (ceil_div(k, 16), ceil_div(m, 16), 16, 16), g.dtype)
    for mi in range(m):
        for ki in range(k):
            a[..., ki // 16, mi // 16, mi % 16, ki % 16] = g[..., mi, ki]
    return a


def ndc1hwc0(g):  # g: NCDHW -> (N, D, C1, H, W, 16)
    n, c, d, h, w = g.shape
    a = np.zeros((n, d, ceil_div(c, 16), h, w, 16), g.dtype)
    for ci in range(c):
        a[:, :, ci // 16, :, :, ci % 16] = g[:, ci]
    return a


# ---- writers ----------------------------------------------------------------------------------
def fresh_sides(here):
    """Empties left/ and right/ under here (making them where missing)."""
    for sub in ("left", "right"):
        shutil.rmtree(os.path.join(here, sub), ignore_errors=True)
        os.makedirs(os.path.join(here, sub))


def write_dump(directory, op_type, op_name, op_id, inputs, outputs):
    """Writes op_type.op_name.op_id.0.<dump time> in directory.
    inputs/outputs: lists of (device array, format, original_shape or None)."""
    d = DumpData(version="2.0", dump_time=TS + op_id, op_name=op_name)
    for lst, tensors in ((d.input, inputs), (d.output, outputs)):
        for arr, fmt, orig in tensors:
            t = lst.add()
            t.data_type = DT[arr.dtype]
            t.format = FMT[fmt]
            t.shape.dim.extend(arr.shape)
            t.size = arr.nbytes
            if orig is not None:
                t.original_shape.dim.extend(orig)
    header = d.SerializeToString()
    with open(os.path.join(directory, "%s.%s.%d.0.%d" % (op_type, op_name, op_id, TS + op_id)), "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header)
        for arr, _, _ in inputs + outputs:
            f.write(np.ascontiguousarray(arr).tobytes())


def output_desc(origin, layout, shape, dtype=np.float16):
    return {"dtype": DT_JSON[dtype], "layout": layout, "shape": {"dim": list(shape)},
            "attr": [{"key": "_datadump_origin_name", "value": {"s": origin}},
                     {"key": "_datadump_origin_output_index", "value": {"i": 0}},
                     {"key": "_datadump_origin_format", "value": {"s": layout}},
                     {"key": "origin_shape", "value": {"list": {"i": list(shape), "val_type": "VT_LIST_INT"}}}]}


def model_op(name, op_type, op_id, inputs, desc, original_names):
    """An op of the offline-model JSON with one output, described by desc (output_desc's)."""
    return {"name": name, "type": op_type, "id": op_id, "input": inputs, "output_desc": [desc],
            "attr": [{"key": "_datadump_original_op_names", "value": {"list": {"s": original_names}}}]}


def write_model(path, graph_name, ops):
    with open(path, "w") as f:
        json.dump({"graph": [{"name": graph_name, "op": ops}]}, f, indent=1)
