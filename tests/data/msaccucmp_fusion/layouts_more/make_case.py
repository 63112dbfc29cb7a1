#!/usr/bin/env python3
"""Writes the layouts_more case beside this script: left/ (Ascend binary NPU dumps), right/ (golden .npy),
model.json (an offline-model JSON for -f).

Device layouts the other cases lack: NC1HWC0_C04, FRACTAL_Z_C04, FRACTAL_Z_3D and C1HWNCoC0 (msaccucmp
has no converter for them), and the conversions msaccucmp has that they do not reach: NC1HWC0 -> HWCN,
FRACTAL_Z -> HWCN, FRACTAL_NZ -> NCHW (batched), FRACTAL_NZ -> NHWC (2-D) and NDC1HWC0 -> ND.
Each device tensor is its golden laid out as the device does (GE's layouts, docs/layouts.md), in fp16
unless noted, with zero padding. Only Python 3, numpy and protobuf; deterministic.
Usage: python3 make_case.py   (rewrites left/, right/ and model.json)
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
FMT = {"NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "NC1HWC0_C04": 12,
       "FRACTAL_Z_C04": 13, "HWCN": 16, "C1HWNCoC0": 25, "FRACTAL_NZ": 29, "NCDHW": 30,
       "NDC1HWC0": 32, "FRACTAL_Z_3D": 33}
DT = {np.dtype(np.float32): 1, np.dtype(np.float16): 2}


def _messages():
    """The header messages, built at run time (field numbers as in host/io/dump_data.proto)."""
    f = descriptor_pb2.FileDescriptorProto(name="layouts_more_dump.proto", package="layouts_more",
                                           syntax="proto3")
    T = descriptor_pb2.FieldDescriptorProto
    def msg(name, fields):
        m = f.message_type.add(name=name)
        for fname, num, ftype, label, tname in fields:
            fd = m.field.add(name=fname, number=num, type=ftype, label=label)
            if tname:
                fd.type_name = ".layouts_more." + tname
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
    return get(pool.FindMessageTypeByName("layouts_more.DumpData"))


DumpData = _messages()


def ceil_div(a, b):
    return -(-a // b)


# ---- device layouts, from a host-layout golden g -------------------------------------------------
def nc1hwc0(g, c0=16):  # g: NCHW
    n, c, h, w = g.shape
    a = np.zeros((n, ceil_div(c, c0), h, w, c0), g.dtype)
    for ci in range(c):
        a[:, ci // c0, :, :, ci % c0] = g[:, ci]
    return a


def fractal_z_c04(g):  # g: NCHW weight, C <= 4; z = (h*W + w)*4 + c tiled by 16 (GE nchw_fz_c04)
    n, c, h, w = g.shape
    k = h * w * 4
    a = np.zeros((ceil_div(k, 16), ceil_div(n, 16), 16, 16), g.dtype)
    for ni in range(n):
        for ci in range(c):
            for hi in range(h):
                for wi in range(w):
                    z = (hi * w + wi) * 4 + ci
                    a[z // 16, ni // 16, ni % 16, z % 16] = g[ni, ci, hi, wi]
    return a


def fractal_z_3d(g):  # g: NCDHW weight -> (D*C1*H*W, N1, 16, 16) (GE dhwcn_fracz3D)
    n, c, d, h, w = g.shape
    c1 = ceil_div(c, 16)
    a = np.zeros((d * c1 * h * w, ceil_div(n, 16), 16, 16), g.dtype)
    for ni in range(n):
        for ci in range(c):
            for di in range(d):
                for hi in range(h):
                    for wi in range(w):
                        row = ((di * c1 + ci // 16) * h + hi) * w + wi
                        a[row, ni // 16, ni % 16, ci % 16] = g[ni, ci, di, hi, wi]
    return a


def c1hwncoc0(g):  # g: HWCN -> (C1, H, W, N, Co, C0), value on the diagonal Co == C0 (GE c1hwncoc0)
    h, w, c, n = g.shape
    a = np.zeros((ceil_div(c, 16), h, w, n, 16, 16), g.dtype)
    for ci in range(c):
        a[ci // 16, :, :, :, ci % 16, ci % 16] = g[:, :, ci, :]
    return a


def fractal_z_hwcn(g):  # g: HWCN -> (C1*H*W, N1, 16, 16)
    h, w, c, n = g.shape
    a = np.zeros((ceil_div(c, 16) * h * w, ceil_div(n, 16), 16, 16), g.dtype)
    for ci in range(c):
        for ni in range(n):
            a[(ci // 16) * h * w:(ci // 16 + 1) * h * w, ni // 16, ni % 16, ci % 16] = g[:, :, ci, ni].reshape(-1)
    return a


def fractal_nz(g):  # g: (..., M, K) -> (..., K1, M1, 16, 16)
    *b, m, k = g.shape
    a = np.zeros(tuple(b) + (ceil_div(k, 16), ceil_div(m, 16), 16, 16), g.dtype)
    for mi in range(m):
        for ki in range(k):
            a[..., ki // 16, mi // 16, mi % 16, ki % 16] = g[..., mi, ki]
    return a


def ndc1hwc0(g):  # g: NCDHW -> (N, D, C1, H, W, C0)
    n, c, d, h, w = g.shape
    a = np.zeros((n, d, ceil_div(c, 16), h, w, 16), g.dtype)
    for ci in range(c):
        a[:, :, ci // 16, :, :, ci % 16] = g[:, ci]
    return a


def hwcn_to_nc1hwc0(g):  # an NC1HWC0 tensor whose golden is written HWCN
    return nc1hwc0(np.transpose(g, (3, 2, 0, 1)))


# ---- writers ----------------------------------------------------------------------------------
def tensor_fields(t, device, fmt, original_shape):
    t.data_type = DT[device.dtype]
    t.format = FMT[fmt]
    t.shape.dim.extend(device.shape)
    t.size = device.nbytes
    if original_shape is not None:
        t.original_shape.dim.extend(original_shape)


def write_dump(path, op_name, op_id, inputs, outputs):
    """inputs/outputs: lists of (device array, format, original_shape or None)."""
    d = DumpData(version="2.0", dump_time=TS + op_id, op_name=op_name)
    for arr, fmt, orig in inputs:
        tensor_fields(d.input.add(), arr, fmt, orig)
    for arr, fmt, orig in outputs:
        tensor_fields(d.output.add(), arr, fmt, orig)
    header = d.SerializeToString()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header)
        for arr, _, _ in inputs + outputs:
            f.write(np.ascontiguousarray(arr).tobytes())


def output_desc(name, layout, shape):
    return {"dtype": "DT_FLOAT16", "layout": layout, "shape": {"dim": list(shape)},
            "attr": [{"key": "_datadump_origin_name", "value": {"s": name}},
                     {"key": "_datadump_origin_output_index", "value": {"i": 0}},
                     {"key": "_datadump_origin_format", "value": {"s": layout}},
                     {"key": "origin_shape", "value": {"list": {"i": list(shape), "val_type": "VT_LIST_INT"}}}]}


def main():
    rng = np.random.RandomState(20261128)
    for sub in ("left", "right"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
        os.makedirs(os.path.join(HERE, sub))

    def golden(shape):
        return rng.standard_normal(shape).astype(np.float32)

    def npu(g, dtype=np.float16):  # the NPU's values: the golden with a little noise, in the NPU's dtype
        return (g + rng.uniform(-0.01, 0.01, g.shape).astype(np.float32)).astype(dtype)

    # name, type, inputs (model), golden layout, golden, NPU outputs [(device, fmt, original_shape)],
    # NPU inputs (same form)
    ops = []
    x = golden((1, 3, 5, 5))
    x_dev = nc1hwc0(npu(x), c0=4)
    ops.append(("x", "Data", [], "NCHW", x, [(x_dev, "NC1HWC0_C04", x.shape)], []))
    w = golden((4, 3, 2, 2))
    w_dev = fractal_z_c04(npu(w))
    ops.append(("w", "Const", [], "NCHW", w, [(w_dev, "FRACTAL_Z_C04", w.shape)], []))
    conv = golden((4, 4, 4, 1))  # HWCN golden of an NC1HWC0 output, no original_shape in the dump
    ops.append(("conv", "Conv2D", ["x:0", "w:0"], "HWCN", conv, [(hwcn_to_nc1hwc0(npu(conv)), "NC1HWC0", None)],
                [(x_dev, "NC1HWC0_C04", x.shape), (w_dev, "FRACTAL_Z_C04", w.shape)]))
    w3d = golden((3, 2, 2, 2, 2))
    ops.append(("w3d", "Const", [], "NCDHW", w3d, [(fractal_z_3d(npu(w3d)), "FRACTAL_Z_3D", w3d.shape)], []))
    wc1 = golden((2, 2, 5, 3))
    ops.append(("wc1", "Const", [], "HWCN", wc1, [(c1hwncoc0(npu(wc1)), "C1HWNCoC0", wc1.shape)], []))
    wz = golden((3, 3, 5, 6))
    ops.append(("wz", "Const", [], "HWCN", wz,
                [(fractal_z_hwcn(npu(wz, np.float32)), "FRACTAL_Z", wz.shape)], []))
    mm = golden((1, 2, 5, 7))
    ops.append(("mm", "BatchMatMul", [], "NCHW", mm, [(fractal_nz(npu(mm)), "FRACTAL_NZ", mm.shape)], []))
    mh = golden((6, 20))
    ops.append(("mh", "MatMul", [], "NHWC", mh, [(fractal_nz(npu(mh)), "FRACTAL_NZ", None)], []))
    c3 = golden((1, 3, 2, 2, 2))
    ops.append(("c3", "Conv3D", [], "ND", c3, [(ndc1hwc0(npu(c3)), "NDC1HWC0", c3.shape)], []))

    model_ops = []
    for op_id, (name, op_type, inputs, layout, g, outs, ins) in enumerate(ops, start=1):
        write_dump(os.path.join(HERE, "left", "%s.%s.%d.0.%d" % (op_type, name, op_id, TS + op_id)),
                   name, op_id, ins, outs)
        np.save(os.path.join(HERE, "right", "%s.0.%d.npy" % (name, TS)), g)
        model_ops.append({"name": name, "type": op_type, "id": op_id, "input": inputs,
                          "output_desc": [output_desc(name, layout, g.shape)],
                          "attr": [{"key": "_datadump_original_op_names", "value": {"list": {"s": [name]}}}]})
    with open(os.path.join(HERE, "model.json"), "w") as f:
        json.dump({"graph": [{"name": "g", "op": model_ops}]}, f, indent=1)


if __name__ == "__main__":
    main()
