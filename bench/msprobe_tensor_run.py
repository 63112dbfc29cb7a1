#!/usr/bin/env python3
"""A generated msprobe tensor-mode run for bench/vs_msprobe_tensor.sh: python3 msprobe_tensor_run.py
OUT_DIR GIB (needs torch). Writes OUT_DIR/{npu,bench}/proc0/ (dump.json, dump_tensor_data/*.pt) with
about GIB gibibytes of .pt files over both sides: ops of a transformer-like stack, each with two
inputs and an output of 1M-8M elements, mostly float32, some bfloat16 and float16; the NPU side is
the bench side with a small noise (and a few tensors far off). SIZES="1024,4096" (elements, comma
separated) replaces the sizes: many small tensors."""
import json
import os
import sys

import torch

out, gib = sys.argv[1], float(sys.argv[2])
torch.manual_seed(11)
sizes = [int(n) for n in os.environ.get("SIZES", "").split(",") if n] or [1 << 20, 1 << 21, 1 << 22,
                                                                        1 << 23]
dtypes = [torch.float32] * 6 + [torch.bfloat16, torch.float16]


def stats(t):
    f = t.double()
    return float(f.max()), float(f.min()), float(f.mean()), float(f.norm())


def entry(side_dir, name, t):
    torch.save(t, os.path.join(side_dir, name + ".pt"))
    mx, mn, mean, norm = stats(t)
    return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape), "Max": mx, "Min": mn,
            "Mean": mean, "Norm": norm, "requires_grad": False, "data_name": name + ".pt"}


dirs = {side: os.path.join(out, side, "proc0") for side in ("npu", "bench")}
data = {side: {} for side in dirs}
for d in dirs.values():
    os.makedirs(os.path.join(d, "dump_tensor_data"), exist_ok=True)
written, i = 0, 0
while written < gib * (1 << 30):
    n, dtype = sizes[i % len(sizes)], dtypes[i % len(dtypes)]
    key = f"Functional.linear.{i}.forward"
    ops = {side: {"input_args": [], "input_kwargs": {}, "output": []} for side in dirs}
    for kind, count in (("input_args", 2), ("output", 1)):
        for k in range(count):
            bench = torch.randn(n // 1024, 1024).to(dtype)
            scale = 0.5 if i % 17 == 5 else 1e-3
            npu = (bench.float() + torch.randn(bench.shape) * scale).to(dtype)
            name = f"{key}.{'input' if kind == 'input_args' else 'output'}.{k}"
            for side, t in (("npu", npu), ("bench", bench)):
                ops[side][kind].append(entry(os.path.join(dirs[side], "dump_tensor_data"), name, t))
                written += t.numel() * t.element_size()
    for side in dirs:
        data[side][key] = ops[side]
    i += 1
for side, d in dirs.items():
    with open(os.path.join(d, "dump.json"), "w") as f:
        json.dump({"task": "tensor", "level": "L1", "framework": "pytorch",
                   "dump_data_dir": os.path.join(d, "dump_tensor_data"), "data": data[side]}, f, indent=1)
print(f"{i} ops, {written / (1 << 30):.2f} GiB of tensors")
