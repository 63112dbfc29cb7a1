#!/usr/bin/env python3
"""Writes the cf_layouts case beside this script: left/ (NPU binary dumps of the fused model), right/
(NPU binary dumps of the same model with fusion off), open.json and close.json (for -f and -cf).

Both sides hold device layouts. The fused side's tensors are NC1HWC0, FRACTAL_Z, FRACTAL_NZ and NDC1HWC0
(fp16 and fp32, with and without original shapes); the fusion-off side holds NCHW, ND and NCDHW tensors
(which msaccucmp restores the left tensor to) and NC1HWC0, FRACTAL_Z, FRACTAL_NZ and NDC1HWC0 tensors
(which msaccucmp never converts: the left tensor is then compared in its device layout, padding included).
One left NCHW input meets an NC1HWC0 tensor on the right (msaccucmp cannot convert it: a NaN row).
Sizes on both sides of 100 elements, so that -max 100 cuts some tensors and not others.
relu1's channels 16..19 are wrong on the fused side (only after element 100 in both the NC1HWC0 and
the NCHW order, so -max 100 hides it), and bias1's first four rows are off (inside the first 100).

Each device tensor is its host-layout value laid out as the device does (GE's layouts, docs/layouts.md),
with zero padding. Only Python 3, numpy and protobuf; deterministic.
Usage: python3 make_case.py   (rewrites left/, right/, open.json and close.json)
"""
import json
import os
import shutil
import struct

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

HERE = os.path.dirname(os.path.abspath(__file__))
TS = 1700000000000000

# Format and data-type codes of the dump header (dump_data.proto's OutputFormat / OutputDataType).
FMT = {"NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "FRACTAL_NZ": 29, "NCDHW": 30,
       "NDC1HWC0": 32}
DT = {np.dtype(np.float32): 1, np.dtype(np.float16): 2}
DT_JSON = {np.float32: "DT_FLOAT", np.float16: "DT_FLOAT16"}


def _messages():
    """The header messages, built at run time (field numbers as in host/io/dump_data.proto)."""
    f = descriptor_pb2.FileDescriptorProto(name="cf_layouts_dump.proto", package="cf_layouts",
                                           syntax="proto3")
    T = descriptor_pb2.FieldDescriptorProto
    def msg(name, fields):
        m = f.message_type.add(name=name)
        for fname, num, ftype, label, tname in fields:
            fd = m.field.add(name=fname, number=num, type=ftype, label=label)
            if tname:
                fd.type_name = ".cf_layouts." + tname
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
    return get(pool.FindMessageTypeByName("cf_layouts.DumpData"))


DumpData = _messages()


def ceil_div(a, b):
    return -(-a // b)


# ---- device layouts, from a host-layout value g -------------------------------------------------
def nc1hwc0(g):  # g: NCHW -> (N, C1, H, W, 16)
    n, c, h, w = g.shape
    a = np.zeros((n, ceil_div(c, 16), h, w, 16), g.dtype)
    for ci in range(c):
        a[:, ci // 16, :, :, ci % 16] = g[:, ci]
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


LAYOUT = {"NCHW": lambda g: g, "ND": lambda g: g, "NCDHW": lambda g: g, "NC1HWC0": nc1hwc0,
          "FRACTAL_Z": fractal_z, "FRACTAL_NZ": fractal_nz, "NDC1HWC0": ndc1hwc0}
HOST_LAYOUT = {2: "ND", 1: "ND", 4: "NCHW", 5: "NCDHW"}


# ---- writers ----------------------------------------------------------------------------------
def write_dump(path, op_name, op_id, inputs, outputs):
    """inputs/outputs: lists of (device array, format, original_shape or None)."""
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
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header)
        for arr, _, _ in inputs + outputs:
            f.write(np.ascontiguousarray(arr).tobytes())


def output_desc(origin, dtype, shape):
    layout = HOST_LAYOUT[len(shape)]
    return {"dtype": DT_JSON[dtype], "layout": layout, "shape": {"dim": list(shape)},
            "attr": [{"key": "_datadump_origin_name", "value": {"s": origin}},
                     {"key": "_datadump_origin_output_index", "value": {"i": 0}},
                     {"key": "_datadump_origin_format", "value": {"s": layout}},
                     {"key": "origin_shape", "value": {"list": {"i": list(shape), "val_type": "VT_LIST_INT"}}}]}


def model_op(name, op_type, op_id, inputs, origin, dtype, shape, original_names):
    return {"name": name, "type": op_type, "id": op_id, "input": inputs,
            "output_desc": [output_desc(origin, dtype, shape)],
            "attr": [{"key": "_datadump_original_op_names", "value": {"list": {"s": original_names}}}]}


# The fusion-off model: name, type, inputs, shape of its one output, its layout and dtype in the dump.
CLOSE = [
    ("data", "Data", [], (1, 20, 6, 6), "NCHW", np.float16),
    ("w1", "Const", [], (20, 20, 1, 1), "FRACTAL_Z", np.float16),
    ("conv1", "Conv2D", ["data:0", "w1:0"], (1, 20, 6, 6), "NC1HWC0", np.float16),
    ("relu1", "Relu", ["conv1:0"], (1, 20, 6, 6), "NC1HWC0", np.float16),
    ("w2", "Const", [], (8, 20, 2, 2), "NCHW", np.float32),
    ("conv2", "Conv2D", ["relu1:0", "w2:0"], (1, 8, 4, 4), "NCHW", np.float32),
    ("gap", "ReduceMean", ["relu1:0"], (1, 20), "ND", np.float16),
    ("data3d", "Data", [], (1, 3, 2, 3, 3), "NCDHW", np.float16),
    ("conv3d", "Conv3D", ["data3d:0"], (1, 5, 2, 3, 3), "NDC1HWC0", np.float16),
    ("bn3d", "BNInference", ["conv3d:0"], (1, 5, 2, 3, 3), "ND", np.float32),
    ("x2d", "Data", [], (20, 40), "ND", np.float16),
    ("fcw", "Const", [], (40, 24), "FRACTAL_NZ", np.float16),
    ("bvec", "Const", [], (24,), "ND", np.float16),
    ("fc", "MatMul", ["x2d:0", "fcw:0"], (20, 24), "FRACTAL_NZ", np.float16),
    ("bias1", "BiasAdd", ["fc:0", "bvec:0"], (20, 24), "FRACTAL_NZ", np.float16),
    ("sm", "Softmax", ["bias1:0"], (20, 24), "ND", np.float32),
    ("head", "MatMul", ["sm:0"], (3, 5), "ND", np.float16),
]

# The fused model: name, type, original op names, inputs as (producer, layout, dtype, with original
# shape), output as (origin op (fusion-off name), layout, dtype, with original shape).
F16, F32 = np.float16, np.float32
OPEN = [
    ("data", "Data", ["data"], [], ("data", "NC1HWC0", F16, False)),
    ("w1", "Const", ["w1"], [], ("w1", "FRACTAL_Z", F16, True)),
    ("conv1relu1", "Conv2D", ["conv1", "relu1"],
     [("data", "NC1HWC0", F16, True), ("w1", "FRACTAL_Z", F16, True)], ("relu1", "NC1HWC0", F16, True)),
    ("w2", "Const", ["w2"], [], ("w2", "FRACTAL_Z", F32, True)),
    ("conv2", "Conv2D", ["conv2"],
     [("conv1relu1", "NC1HWC0", F16, True), ("w2", "FRACTAL_Z", F32, False)], ("conv2", "NC1HWC0", F32, False)),
    ("gap", "ReduceMean", ["gap"], [("conv1relu1", "NCHW", F16, False)], ("gap", "ND", F16, False)),
    ("data3d", "Data", ["data3d"], [], ("data3d", "NDC1HWC0", F16, True)),
    ("conv3d", "Conv3D", ["conv3d"], [("data3d", "NDC1HWC0", F16, True)], ("conv3d", "NDC1HWC0", F16, True)),
    ("bn3d", "BNInference", ["bn3d"], [("conv3d", "NDC1HWC0", F32, False)], ("bn3d", "NDC1HWC0", F32, False)),
    ("x2d", "Data", ["x2d"], [], ("x2d", "FRACTAL_NZ", F16, True)),
    ("fcw", "Const", ["fcw"], [], ("fcw", "FRACTAL_NZ", F16, True)),
    ("bvec", "Const", ["bvec"], [], ("bvec", "ND", F16, False)),
    ("fcbias", "MatMulV2", ["fc", "bias1"],
     [("x2d", "FRACTAL_NZ", F16, True), ("fcw", "FRACTAL_NZ", F16, True), ("bvec", "ND", F16, False)],
     ("bias1", "FRACTAL_NZ", F16, True)),
    ("sm", "Softmax", ["sm"], [("fcbias", "FRACTAL_NZ", F16, False)], ("sm", "FRACTAL_NZ", F16, False)),
    ("head", "MatMul", ["head"], [("sm", "FRACTAL_NZ", F16, True)], ("head", "FRACTAL_NZ", F16, True)),
]


def main():
    rng = np.random.RandomState(20261130)
    for sub in ("left", "right"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
        os.makedirs(os.path.join(HERE, sub))

    # Host-layout values of every fusion-off output (fp32), and the fused model's values of the same
    # tensors: a little noise, plus the two faults.
    right_val, left_val = {}, {}
    for name, _, _, shape, _, _ in CLOSE:
        right_val[name] = rng.standard_normal(shape).astype(np.float32)
    for name, _, _, shape, _, _ in CLOSE:
        left_val[name] = right_val[name] + rng.uniform(-0.01, 0.01, shape).astype(np.float32)
    left_val["relu1"][:, 16:] *= -1.0          # after element 100 in NC1HWC0 and NCHW order
    left_val["bias1"][:4] += rng.standard_normal((4, 24)).astype(np.float32)  # inside the first 100

    def right_tensor(name):
        _, _, _, shape, layout, dtype = next(c for c in CLOSE if c[0] == name)
        return LAYOUT[layout](right_val[name].astype(dtype)), layout, None

    for op_id, (name, op_type, inputs, shape, layout, dtype) in enumerate(CLOSE, start=1):
        ins = [right_tensor(i.split(":")[0]) for i in inputs]
        write_dump(os.path.join(HERE, "right", "%s.%s.%d.0.%d" % (op_type, name, op_id, TS + op_id)),
                   name, op_id, ins, [right_tensor(name)])

    origin_of = {name: out[0] for name, _, _, _, out in OPEN}

    def left_tensor(origin, layout, dtype, with_orig):
        g = left_val[origin].astype(dtype)
        return LAYOUT[layout](g), layout, (g.shape if with_orig else None)

    for op_id, (name, op_type, _, inputs, out) in enumerate(OPEN, start=1):
        ins = [left_tensor(origin_of[producer], layout, dtype, orig) for producer, layout, dtype, orig in inputs]
        write_dump(os.path.join(HERE, "left", "%s.%s.%d.0.%d" % (op_type, name, op_id, TS + op_id)),
                   name, op_id, ins, [left_tensor(*out)])

    close_ops = [model_op(name, op_type, op_id, inputs, name, dtype, shape, [name])
                 for op_id, (name, op_type, inputs, shape, _, dtype) in enumerate(CLOSE, start=1)]
    open_ops = []
    for op_id, (name, op_type, originals, inputs, out) in enumerate(OPEN, start=1):
        origin, _, dtype, _ = out
        open_ops.append(model_op(name, op_type, op_id, ["%s:0" % i[0] for i in inputs], origin, dtype,
                                 right_val[origin].shape, originals))
    for fname, gname, ops in (("open.json", "open", open_ops), ("close.json", "close", close_ops)):
        with open(os.path.join(HERE, fname), "w") as f:
            json.dump({"graph": [{"name": gname, "op": ops}]}, f, indent=1)


if __name__ == "__main__":
    main()
