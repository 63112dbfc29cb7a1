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
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from case_tools import (TS, ceil_div, fractal_nz, fractal_z, fresh_sides, model_op, nc1hwc0,  # noqa: E402
                        ndc1hwc0, output_desc, write_dump, write_model)


# ---- device layouts the other cases lack, from a host-layout golden g ---------------------------
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
    return fractal_z(np.transpose(g, (3, 2, 0, 1)))


def hwcn_to_nc1hwc0(g):  # an NC1HWC0 tensor whose golden is written HWCN
    return nc1hwc0(np.transpose(g, (3, 2, 0, 1)))


def main():
    rng = np.random.RandomState(20261128)
    fresh_sides(HERE)

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
        write_dump(os.path.join(HERE, "left"), op_type, name, op_id, ins, outs)
        np.save(os.path.join(HERE, "right", "%s.0.%d.npy" % (name, TS)), g)
        model_ops.append(model_op(name, op_type, op_id, inputs, output_desc(name, layout, g.shape), [name]))
    write_model(os.path.join(HERE, "model.json"), "g", model_ops)


if __name__ == "__main__":
    main()
