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
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from case_tools import (fractal_nz, fractal_z, fresh_sides, model_op, nc1hwc0, ndc1hwc0,  # noqa: E402
                        output_desc, write_dump, write_model)

LAYOUT = {"NCHW": lambda g: g, "ND": lambda g: g, "NCDHW": lambda g: g, "NC1HWC0": nc1hwc0,
          "FRACTAL_Z": fractal_z, "FRACTAL_NZ": fractal_nz, "NDC1HWC0": ndc1hwc0}
HOST_LAYOUT = {2: "ND", 1: "ND", 4: "NCHW", 5: "NCDHW"}


def host_desc(origin, dtype, shape):  # output_desc of a tensor in its host layout
    return output_desc(origin, HOST_LAYOUT[len(shape)], shape, dtype)


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
    fresh_sides(HERE)

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
        write_dump(os.path.join(HERE, "right"), op_type, name, op_id, ins, [right_tensor(name)])

    origin_of = {name: out[0] for name, _, _, _, out in OPEN}

    def left_tensor(origin, layout, dtype, with_orig):
        g = left_val[origin].astype(dtype)
        return LAYOUT[layout](g), layout, (g.shape if with_orig else None)

    for op_id, (name, op_type, _, inputs, out) in enumerate(OPEN, start=1):
        ins = [left_tensor(origin_of[producer], layout, dtype, orig) for producer, layout, dtype, orig in inputs]
        write_dump(os.path.join(HERE, "left"), op_type, name, op_id, ins, [left_tensor(*out)])

    close_ops = [model_op(name, op_type, op_id, inputs, host_desc(name, dtype, shape), [name])
                 for op_id, (name, op_type, inputs, shape, _, dtype) in enumerate(CLOSE, start=1)]
    open_ops = []
    for op_id, (name, op_type, originals, inputs, out) in enumerate(OPEN, start=1):
        origin, _, dtype, _ = out
        open_ops.append(model_op(name, op_type, op_id, ["%s:0" % i[0] for i in inputs],
                                 host_desc(origin, dtype, right_val[origin].shape), originals))
    write_model(os.path.join(HERE, "open.json"), "open", open_ops)
    write_model(os.path.join(HERE, "close.json"), "close", close_ops)


if __name__ == "__main__":
    main()
