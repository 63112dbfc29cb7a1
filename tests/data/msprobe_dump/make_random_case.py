#!/usr/bin/env python3
"""A random msprobe dump pair for checking dumpcmp beside msprobe (bench/vs_msprobe_random.sh):
python3 make_random_case.py OUT_DIR SEED [tensor|statistics|md5] [pytorch|mindspore|cross] [RANKS] writes
OUT_DIR/{npu,bench}/proc0/dump.json, or with RANKS rank0..rank<RANKS-1> whose ops include
all_reduce calls over every rank (and dump_tensor_data/ in tensor mode: torch.save's .pt files,
np.save's .npy files for MindSpore; tensor mode needs torch). Forty to sixty ops, forward and
backward, with random dtypes (every float, integer, bool and complex type the framework dumps),
shapes (0-d, one element, empty, over OpenBLAS's 10,000-element part limit), values (NaN and inf
at the same or other places, zeros, far values), scalar arguments, kwargs, requires_grad, dtype and
shape mismatches, ops missing on either side (cross: a MindSpore NPU run against a PyTorch bench,
API names that msprobe's -am table pairs), and a stack.json of either form beside some NPU
dumps (lines with commas, quotes and newlines). With DATA_MAPPING=1 in the environment some
bench ops are renamed and OUT_DIR/mapping.yaml maps the NPU rows to them (for -dm)."""
import json
import math
import os
import random
import sys

out, seed = sys.argv[1], int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else "tensor"
framework = sys.argv[4] if len(sys.argv) > 4 else "pytorch"
# cross: the NPU side is a MindSpore run, the bench a PyTorch one
SIDE_FRAMEWORK = {"npu": "mindspore" if framework in ("mindspore", "cross") else "pytorch",
                  "bench": "pytorch" if framework in ("pytorch", "cross") else "mindspore"}
CROSS_APIS = ["abs", "add", "addcmul", "addmm", "atan2", "argmax", "asinh"]  # Functional.x -> Torch.x
ranks = int(sys.argv[5]) if len(sys.argv) > 5 else 0
rank_dirs = [f"rank{r}" for r in range(ranks)] or ["proc0"]
random.seed(seed)
SCALARS = [{"type": "int", "value": 3}, {"type": "float", "value": 0.5}, {"type": "bool", "value": True},
           None, {"type": "str", "value": "mean"}, {"type": "slice", "value": [0, 2, None]}]
SIDES = ("npu", "bench")


def tensor_maker():
    """(dtypes, make(dtype, shape), perturb(t) -> (npu, bench), entry(side, name, t))."""
    import numpy as np
    import torch
    from dumper_stats import stats
    torch.manual_seed(seed)
    ms_names = {torch.float32: "Float32", torch.float16: "Float16", torch.float64: "Float64",
                torch.int32: "Int32", torch.int64: "Int64", torch.int8: "Int8", torch.uint8: "UInt8",
                torch.bool: "Bool", torch.complex64: "Complex64"}
    dtypes = [torch.float32] * 4 + [torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int64,
                                    torch.int8, torch.uint8, torch.bool, torch.complex64,
                                    torch.float8_e4m3fn, torch.float8_e5m2]
    if framework != "pytorch":
        dtypes = [d for d in dtypes if d in ms_names]

    def make(dtype, shape):
        if dtype == torch.bool:
            return torch.rand(shape) > 0.5
        if dtype in (torch.int32, torch.int64, torch.int8):
            return torch.randint(-100, 100, shape).to(dtype)
        if dtype == torch.uint8:
            return torch.randint(0, 255, shape).to(dtype)
        if dtype == torch.complex64:
            return torch.randn(shape, dtype=torch.complex64)
        return (torch.randn(shape) * random.choice([1e-3, 1.0, 100.0])).to(dtype)

    def perturb(t):
        kind = random.choice(["same", "noise", "noise", "zero", "specials", "far", "dtype"])
        n, b = t, t.clone()
        if t.numel() == 0:
            return n, b
        if kind == "noise" and t.is_floating_point():
            b = (t.float() + torch.randn(t.shape) * 1e-3).to(t.dtype)
        elif kind == "zero":
            b.reshape(-1)[: max(1, t.numel() // 3)] = 0
        elif kind == "specials" and (t.is_floating_point() or t.is_complex()) and t.dtype != torch.float8_e4m3fn:
            n = t.clone()
            for i in random.sample(range(t.numel()), min(t.numel(), 3)):
                v = random.choice([math.nan, math.inf, -math.inf])
                b.reshape(-1)[i] = v
                if random.random() < 0.7:
                    n.reshape(-1)[i] = v
        elif kind == "far" and t.is_floating_point():
            b = (t.float() * 2 + 1).to(t.dtype)
        elif kind == "dtype" and t.dtype == torch.float32:
            b = t.to(random.choice([torch.float16, torch.float64]))
        return n, b

    def entry(side, name, t):
        mx, mn, mean, norm = stats(t)
        data = os.path.join(out, side, rank_dir, "dump_tensor_data")
        if SIDE_FRAMEWORK[side] == "mindspore":
            np.save(os.path.join(data, name + ".npy"), t.numpy())
            return {"type": "mindspore.Tensor", "dtype": ms_names[t.dtype], "shape": list(t.shape),
                    "Max": mx, "Min": mn, "Mean": mean, "Norm": norm, "data_name": name + ".npy"}
        torch.save(t, os.path.join(data, name + ".pt"))
        return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape), "Max": mx, "Min": mn,
                "Mean": mean, "Norm": norm, "requires_grad": random.random() < 0.2, "data_name": name + ".pt"}

    return dtypes, make, perturb, entry


def stats_maker():
    """The same four functions for statistics and md5 dumps: only dump.json's numbers."""
    dtypes = ["torch.float32", "torch.float16", "torch.bfloat16", "torch.int64", "torch.bool", "torch.float64",
              "torch.int32", "torch.uint8"]
    ms_names = {"torch.float32": "Float32", "torch.float16": "Float16", "torch.bfloat16": "BFloat16",
                "torch.int64": "Int64", "torch.bool": "Bool", "torch.float64": "Float64", "torch.int32": "Int32"}
    if framework != "pytorch":
        dtypes = list(ms_names)

    def number(dtype):
        r = random.random()
        if r < 0.04:
            return math.nan
        if r < 0.07:
            return random.choice([math.inf, -math.inf])
        if r < 0.1:
            return None
        if "bool" in dtype.lower():
            return random.choice([True, False])
        if "int" in dtype.lower():
            return random.randint(-10 ** random.randint(0, 12), 10 ** random.randint(0, 12))
        v = random.uniform(-1, 1) * 10.0 ** random.choice([-40, -20, -8, -3, 0, 0, 0, 2, 5, 10, 20, 38])
        return float(round(v)) if random.random() < 0.1 else 0.0 if random.random() < 0.1 else v

    def make(dtype, shape):
        return {"dtype": dtype, "shape": shape, "stats": [number(dtype) for _ in range(4)]}

    def perturb(t):
        b = dict(t)
        r = random.random()
        if r < 0.1:
            b = make(random.choice(dtypes), t["shape"])
        elif r < 0.6:
            b["stats"] = [v * (1 + random.uniform(-1e-3, 1e-3))
                          if isinstance(v, float) and math.isfinite(v) and random.random() < 0.7 else v
                          for v in t["stats"]]
        if random.random() < 0.07:
            b["shape"] = random.choice([[5], [2, 4]])
        return t, b

    md5s = {}

    def entry(side, name, t):
        torch_side = SIDE_FRAMEWORK[side] == "pytorch"
        d = {"type": "torch.Tensor" if torch_side else "mindspore.Tensor",
             "dtype": t["dtype"] if torch_side else ms_names[t["dtype"]],
             "shape": t["shape"], "Max": t["stats"][0], "Min": t["stats"][1], "Mean": t["stats"][2],
             "Norm": t["stats"][3]}
        if torch_side:
            d["requires_grad"] = random.random() < 0.3
        if mode == "md5":  # the bench's checksum equals the NPU's half of the time
            d["md5"] = md5s[name] if side == "bench" and random.random() < 0.5 else "%08x" % random.getrandbits(32)
            md5s[name] = d["md5"]
        return d

    return dtypes, make, perturb, entry


dtypes, make, perturb, entry = tensor_maker() if mode == "tensor" else stats_maker()
shapes = [[], [1], [0], [3], [1, 5], [4, 1], [7, 9], [16], [33], [100, 3], [10001], [20011], [3, 7001]]
if mode != "tensor":
    shapes = [[], [3], [2, 4], [1024, 1024], [0]]
GROUP = {"type": "torch.ProcessGroup", "group_ranks": list(range(ranks)), "group_id": "g"}


def write_rank(rank_dir):
    for side in SIDES:
        os.makedirs(os.path.join(out, side, rank_dir, "dump_tensor_data" if mode == "tensor" else ""),
                    exist_ok=True)
    data = {side: {} for side in SIDES}
    prefix = "Functional" if framework == "pytorch" else "Mint"
    for i in range(random.randint(40, 60)):
        backward = random.random() < 0.2
        comm = ranks > 0 and not backward and random.random() < 0.15
        key = f"{'Distributed.all_reduce' if comm else prefix + '.op' + str(i % 7)}.{i}." + \
              ("backward" if backward else "forward")
        if framework == "cross" and not comm:
            key = f"Functional.{CROSS_APIS[i % len(CROSS_APIS)]}.{i}.{'backward' if backward else 'forward'}"
        inputs = "input" if backward else "input_args"
        ops = {side: {inputs: [], "output": []} if backward else {inputs: [], "input_kwargs": {}, "output": []}
               for side in SIDES}
        for kind, count in ((inputs, random.randint(1, 3)), ("output", random.randint(1, 2))):
            for k in range(count):
                if kind == inputs and random.random() < 0.15:
                    scalar = random.choice(SCALARS)
                    for side in SIDES:
                        ops[side][kind].append(scalar)
                    continue
                name = f"{key}.{'input' if kind == inputs else 'output'}.{k}"
                n, b = perturb(make(random.choice(dtypes), random.choice(shapes)))
                if random.random() < 0.05:  # shapes unmatched
                    b = make(random.choice(dtypes), random.choice(shapes))
                ops["npu"][kind].append(entry("npu", name, n))
                ops["bench"][kind].append(entry("bench", name, b))
        if comm:
            for side in SIDES:
                ops[side]["input_kwargs"]["group"] = GROUP
        elif not backward and random.random() < 0.2:
            alpha = make(dtypes[0], [5])
            for side in SIDES:
                ops[side]["input_kwargs"]["alpha"] = entry(side, f"{key}.input.alpha", alpha)
        missing = random.choice(SIDES) if random.random() < 0.1 else None
        bench_key = key.replace("Functional.", "Torch.", 1) if framework == "cross" else key
        if os.environ.get("DATA_MAPPING") and random.random() < 0.2:
            bench_key = key.replace(".op", ".renamed", 1)
            rows = [f"{key}.input.{k}" for k in range(len(ops["npu"][inputs]))]
            rows += [f"{key}.output.{k}" for k in range(len(ops["npu"]["output"]))]
            rows += [f"{key}.input.{k}" for k in ops["npu"].get("input_kwargs", {})]
            for row in rows:
                mapping[row] = row.replace(key, bench_key, 1)
        for side in SIDES:
            if side != missing:
                data[side][bench_key if side == "bench" else key] = ops[side]
    stack_form = random.choice([None, "old", "new"])
    if stack_form:  # the NPU side's stack.json, read for NPU_Stack_Info
        lines = ['File "train.py", line 12, in forward, y = f(x, "a,b")', "File model.py, line 3, in\n call",
                 "File 'x.py', line 7, in <lambda>"]
        keys = [k for k in data["npu"] if random.random() < 0.7]
        if stack_form == "old":
            stack = {k: random.sample(lines, random.randint(1, 3)) for k in keys}
        else:
            stack = {str(i): [keys[i::3], random.sample(lines, random.randint(1, 3))] for i in range(3)}
        with open(os.path.join(out, "npu", rank_dir, "stack.json"), "w") as f:
            json.dump(stack, f)
    task = "tensor" if mode == "tensor" else "statistics"
    for side in SIDES:
        root = os.path.join(out, side, rank_dir)
        with open(os.path.join(root, "dump.json"), "w") as f:
            json.dump({"task": task, "level": "mix", "framework": SIDE_FRAMEWORK[side],
                       "dump_data_dir": os.path.join(root, "dump_tensor_data") if mode == "tensor" else None,
                       "data": data[side]}, f, indent=1)


mapping = {}
for rank_dir in rank_dirs:
    write_rank(rank_dir)
if mapping:
    with open(os.path.join(out, "mapping.yaml"), "w") as f:
        for npu_name, bench_name in mapping.items():
            f.write(f"{npu_name}: {bench_name}\n")
