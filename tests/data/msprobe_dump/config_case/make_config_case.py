#!/usr/bin/env python3
"""Writes the --config case of tests/cli/test_probe_compare.sh (see ../README.md): a PyTorch
tensor-mode pair (npu/, bench/) and the post-processing YAML msprobe reads with --config
(config.yaml, its matrices in mats/, named relative to this folder). Needs torch; run once in this
folder (python3 make_config_case.py), the output is committed with msprobe's CSV for it.

Most values are multiples of 1/64 and the matrices small integers, so every product and sum is
exact in float32 and the result does not depend on BLAS's order: those rows must equal msprobe's
byte for byte. One pair (Functional.linear.2) has full-precision values: its metrics may differ
in their last digits (docs/compatibility.md)."""
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from dumper_stats import stats  # noqa: E402

torch.manual_seed(11)
rng = np.random.default_rng(11)


def coarse(*shape, dtype=torch.float32):
    return (torch.randint(-256, 256, shape).double() / 64).to(dtype)


def mat(*shape):
    return rng.integers(-2, 3, shape).astype(np.float32)


class Side:
    def __init__(self, root):
        self.root = root
        self.data = os.path.join(root, "dump_tensor_data")
        os.makedirs(self.data, exist_ok=True)
        self.ops = {}

    def leaf(self, name, t):
        mx, mn, mean, norm = stats(t)
        torch.save(t, os.path.join(self.data, name + ".pt"))
        return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape), "Max": mx,
                "Min": mn, "Mean": mean, "Norm": norm, "requires_grad": False,
                "data_name": name + ".pt"}

    def op(self, key, inputs, outputs):
        self.ops[key] = {"input_args": [self.leaf(f"{key}.input.{i}", t) for i, t in enumerate(inputs)],
                         "input_kwargs": {},
                         "output": [self.leaf(f"{key}.output.{i}", t) for i, t in enumerate(outputs)]}

    def write(self):
        with open(os.path.join(self.root, "dump.json"), "w") as f:
            json.dump({"task": "tensor", "level": "L1", "framework": "pytorch",
                       "dump_data_dir": self.data, "data": self.ops}, f, indent=1)


npu, bench = Side("npu/proc0"), Side("bench/proc0")
os.makedirs("mats", exist_ok=True)


def pair(key, inputs, outputs, noise=1 / 1024):
    """Bench tensors, and NPU ones off by multiples of `noise` (floats) or by one here and there."""
    def off(t):
        if t.is_floating_point():
            return (t.double() + torch.randint(-1, 2, t.shape).double() * noise).to(t.dtype)
        return t + (torch.rand(t.shape) < 0.2).to(t.dtype)
    npu.op(key, [off(t) for t in inputs], [off(t) for t in outputs])
    bench.op(key, inputs, outputs)


x, y = coarse(4, 8), coarse(4, 6)
pair("Functional.linear.0.forward", [x], [y])
pair("Functional.linear.1.forward", [coarse(2, 4, 8), coarse(2, 4, 8)], [coarse(8)])
pair("Functional.add.0.forward", [coarse(16, 16, dtype=torch.float16)], [coarse(4, 6)])
pair("Functional.mul.0.forward", [torch.randint(-9, 9, (5,), dtype=torch.int32),
                                  coarse(4, 4, dtype=torch.bfloat16)],
     [coarse(3, 8, dtype=torch.float64)])
full = torch.randn(16, 32)
pair("Functional.linear.2.forward", [full], [coarse(3, 3), coarse(3, 3), coarse(3, 3)], noise=1e-3)
npu.write()
bench.write()

np.save("mats/r8.npy", mat(8, 8))
torch.save(torch.from_numpy(mat(8, 8)), "mats/r8.pt")
np.save("mats/l3.npy", mat(3, 4))
np.save("mats/l4.npy", mat(4, 4))
np.save("mats/r6.npy", mat(6, 6))
torch.save(torch.from_numpy(mat(4, 4)), "mats/l4.pt")
np.save("mats/b8.npy", mat(2, 8, 8))
np.save("mats/h16.npy", mat(16, 16).astype(np.float16))
np.save("mats/i53.npy", rng.integers(-4, 5, (5, 3)).astype(np.int32))
np.save("mats/f44.npy", mat(4, 4))
np.save("mats/d88.npy", mat(8, 8))
np.save("mats/r32.npy", rng.standard_normal((32, 32)).astype(np.float32))
np.save("mats/wrong.npy", mat(5, 5))
torch.save(torch.from_numpy(mat(3, 3)).bfloat16(), "mats/bf16.pt")
np.save("mats/c3.npy", mat(3, 3))

config = f"""# --config of msprobe compare: matrices by the data files they multiply
right_matmul:
  target_tensor_map:
    mats/r8.npy: [Functional.linear.0.forward.input.0.pt, Functional.linear.1.forward.input.0.pt]
    mats/d88.npy: [Functional.linear.1.forward.input.1.pt]
    mats/h16.npy: [Functional.add.0.forward.input.0.pt]
    mats/i53.npy: [Functional.mul.0.forward.input.0.pt]
    mats/f44.npy: [Functional.mul.0.forward.input.1.pt]
    mats/r32.npy: [Functional.linear.2.forward.input.0.pt]
    mats/wrong.npy: [Functional.linear.2.forward.output.0.pt]
    mats/bf16.pt: [Functional.linear.2.forward.output.1.pt]
    mats/absent.npy: [Functional.linear.2.forward.output.2.pt]
    mats/c3.npy: not a list
  golden_tensor_map:
    mats/r8.pt: [Functional.linear.0.forward.input.0.pt]
    mats/b8.npy: [Functional.linear.1.forward.input.0.pt]
    mats/d88.npy: [Functional.linear.1.forward.input.1.pt]
    mats/h16.npy: [Functional.add.0.forward.input.0.pt]
    mats/i53.npy: [Functional.mul.0.forward.input.0.pt]
    mats/f44.npy: [Functional.mul.0.forward.input.1.pt]
    mats/r32.npy: [Functional.linear.2.forward.input.0.pt]
  unknown_key: 1
left_matmul:
  target_tensor_map:
    mats/l3.npy: [Functional.linear.0.forward.output.0.pt]
  golden_tensor_map:
    mats/d88.npy: [Functional.mul.0.forward.output.0.pt]
left_right_matmul:
  left_target_tensor_map:
    mats/l4.npy: [Functional.add.0.forward.output.0.pt]
  right_target_tensor_map:
    mats/r6.npy: [Functional.add.0.forward.output.0.pt]
  left_golden_tensor_map:
    mats/l4.pt: [Functional.add.0.forward.output.0.pt]
  right_golden_tensor_map:
    mats/r6.npy: [Functional.add.0.forward.output.0.pt]
"""
with open("config.yaml", "w") as f:
    f.write(config)
