#!/usr/bin/env python3
"""A random --config case for bench/vs_msprobe_random.sh (MAKER=config): a PyTorch tensor-mode pair
OUT/npu/proc0, OUT/bench/proc0 and OUT/config.yaml with its matrices in OUT/mats/, named as
OUT's parent folder sees them (both tools run there). Values and matrices are small multiples of
powers of two, so every float product and sum is exact in float32 and both tools must write the
same bytes; they cover float16/32/64, bfloat16, integer and bool values; 1-D, 2-D and batched
shapes; matrices of every such dtype, .npy and .pt, that fit, broadcast or do not fit; right, left
and left-right maps on either side. Usage: make_random_config_case.py OUT SEED (needs torch)."""
import os
import random
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dumper_stats import stats  # noqa: E402

out, seed = sys.argv[1], int(sys.argv[2])
rnd = random.Random(seed)
torch.manual_seed(seed)
gen = np.random.default_rng(seed)
top = os.path.basename(os.path.normpath(out))  # the paths in config.yaml start here

VALUE_DTYPES = [torch.float32, torch.float32, torch.float16, torch.float64, torch.bfloat16,
                torch.int32, torch.int64, torch.int8, torch.uint8, torch.bool]
MATRIX_DTYPES = [np.float32, np.float32, np.float16, np.float64, np.int32, np.int16, np.uint8,
                 np.bool_]


def value(shape, dtype):
    if dtype == torch.bool:
        return torch.rand(shape) < 0.5
    if dtype.is_floating_point:
        return (torch.randint(-64, 65, shape).double() / 16).to(dtype)
    low = 0 if dtype == torch.uint8 else -20
    return torch.randint(low, 21, shape).to(dtype)


def nudge(t):
    """The NPU side: the bench off here and there by a small step."""
    if t.dtype == torch.bool:
        return t ^ (torch.rand(t.shape) < 0.1)
    step = (torch.rand(t.shape) < 0.3).double()
    if t.dtype.is_floating_point:
        return (t.double() + step / 64).to(t.dtype)
    return (t.double() + step).to(t.dtype)


class Side:
    def __init__(self, root):
        self.data = os.path.join(root, "dump_tensor_data")
        self.root = root
        os.makedirs(self.data, exist_ok=True)
        self.ops = {}

    def leaf(self, name, t):
        torch.save(t, os.path.join(self.data, name + ".pt"))
        mx, mn, mean, norm = stats(t)
        return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape), "Max": mx,
                "Min": mn, "Mean": mean, "Norm": norm, "requires_grad": False,
                "data_name": name + ".pt"}

    def write(self):
        import json
        with open(os.path.join(self.root, "dump.json"), "w") as f:
            json.dump({"task": "tensor", "level": "L1", "framework": "pytorch",
                       "dump_data_dir": self.data, "data": self.ops}, f, indent=1)


npu, bench = Side(f"{out}/npu/proc0"), Side(f"{out}/bench/proc0")
os.makedirs(f"{out}/mats", exist_ok=True)
maps = {}  # (part, key) -> {matrix path: [data names]}
matrices = 0


def matrix_for(shape, left):
    """A matrix file for a value of `shape`: usually one that fits, sometimes one that does not."""
    global matrices
    matrices += 1
    k = shape[0] if left and len(shape) >= 1 else shape[-1] if shape else 1
    if len(shape) >= 2 and left:
        k = shape[-2]
    other = rnd.choice([1, 2, 3, 5])
    fit = rnd.random() < 0.85
    if not fit:
        k += rnd.choice([1, 2])
    dims = [other, k] if left else [k, other]
    if rnd.random() < 0.2:  # a batch dimension: broadcast against the value's, or not
        dims = [rnd.choice([1, 2, 3])] + dims
    if rnd.random() < 0.1:
        dims = [k]  # 1-D
    dtype = rnd.choice(MATRIX_DTYPES)
    if dtype == np.bool_:
        m = gen.random(dims) < 0.5
    elif np.issubdtype(dtype, np.floating):
        m = (gen.integers(-8, 9, dims) / 4).astype(dtype)
    else:
        m = gen.integers(0 if dtype == np.uint8 else -3, 4, dims).astype(dtype)
    name = f"mats/m{matrices}"
    if rnd.random() < 0.3:
        path = name + ".pt"
        torch.save(torch.from_numpy(np.ascontiguousarray(m)), f"{out}/{path}")
    else:
        path = name + ".npy"
        np.save(f"{out}/{path}", m)
    return f"{top}/{path}"


for n in range(rnd.randint(2, 6)):
    key = f"Functional.linear.{n}.forward"
    inputs, outputs = [], []
    for kind, items in (("input", inputs), ("output", outputs)):
        for i in range(rnd.randint(1, 2)):
            shape = rnd.choice([(6,), (4, 6), (3, 4), (2, 4, 6), (5, 5)])
            t = value(shape, rnd.choice(VALUE_DTYPES))
            items.append((f"{key}.{kind}.{i}", t))
    npu.ops[key] = {"input_args": [npu.leaf(k, nudge(t)) for k, t in inputs], "input_kwargs": {},
                    "output": [npu.leaf(k, nudge(t)) for k, t in outputs]}
    bench.ops[key] = {"input_args": [bench.leaf(k, t) for k, t in inputs], "input_kwargs": {},
                      "output": [bench.leaf(k, t) for k, t in outputs]}
    for name, t in inputs + outputs:
        data_name = name + ".pt"
        shape = list(t.squeeze().shape) or [1]
        for side in ("target", "golden"):
            if rnd.random() < 0.3:
                continue
            part = rnd.choice(["right_matmul", "left_matmul", "left_right_matmul"])
            if part == "left_right_matmul":
                for direction in ("left", "right"):
                    if rnd.random() < 0.7:
                        path = matrix_for(shape, direction == "left")
                        maps.setdefault((part, f"{direction}_{side}_tensor_map"), {}) \
                            .setdefault(path, []).append(data_name)
            else:
                path = matrix_for(shape, part == "left_matmul")
                maps.setdefault((part, f"{side}_tensor_map"), {}).setdefault(path, []) \
                    .append(data_name)
npu.write()
bench.write()

lines = []
for part in ("right_matmul", "left_matmul", "left_right_matmul"):
    keys = [(k, v) for (p, k), v in maps.items() if p == part]
    if not keys:
        continue
    lines.append(f"{part}:")
    for k, entries in keys:
        lines.append(f"  {k}:")
        for path, names in entries.items():
            lines.append(f"    {path}: [{', '.join(names)}]")
with open(f"{out}/config.yaml", "w") as f:
    f.write("\n".join(lines) + "\n")
