#!/usr/bin/env python3
"""A dump pair written by msprobe's own PyTorch dumper, for bench/vs_msprobe_random.sh (MAKER=real):
python3 make_real_case.py OUT_DIR SEED [tensor|statistics|md5] [mix|L0|L1], in the venv with torch
and mindstudio-probe, runs a random small model (Linear, ReLU, LayerNorm, GELU, Dropout layers of
width 4-64, float32, bfloat16 or float16, inputs of 0.01-100 with a NaN now and then; forward and
backward) under PrecisionDebugger twice, the NPU run with its weights nudged by 1e-3, and copies
each run's step0 to OUT_DIR/{npu,bench}/proc0 (dump.json, stack.json, construct.json and, in
tensor mode, dump_tensor_data/)."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

out, seed = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "tensor"
level = sys.argv[4] if len(sys.argv) > 4 else "mix"
task, summary = ("tensor", "statistics") if mode == "tensor" else ("statistics", mode)

RUN = r'''
import random, sys, torch
from msprobe.pytorch import PrecisionDebugger
seed, noise = int(sys.argv[2]), float(sys.argv[3])
random.seed(seed)
torch.manual_seed(seed)
width = random.choice([4, 16, 64])
kinds = {"linear": lambda: torch.nn.Linear(width, width), "relu": torch.nn.ReLU,
         "norm": lambda: torch.nn.LayerNorm(width), "gelu": torch.nn.GELU, "drop": lambda: torch.nn.Dropout(0.0)}
model = torch.nn.Sequential(*[kinds[random.choice(list(kinds))]() for _ in range(random.randint(2, 5))])
with torch.no_grad():
    for p in model.parameters():
        p.add_(torch.randn_like(p) * noise)
dtype = random.choice([torch.float32, torch.float32, torch.bfloat16, torch.float16])
model = model.to(dtype)
x = (torch.randn(random.choice([1, 3, 8]), width) * random.choice([0.01, 1, 100])).to(dtype)
if random.random() < 0.2:
    x[0, 0] = float("nan")
x.requires_grad_()
debugger = PrecisionDebugger(config_path=sys.argv[1])
debugger.start(model=model)
model(x).float().pow(2).mean().backward()
debugger.stop()
debugger.step()
'''

work = tempfile.mkdtemp()
for side, noise in (("npu", "0.001"), ("bench", "0.0")):
    dump = os.path.join(work, side)
    config = os.path.join(work, side + ".json")
    with open(config, "w") as f:
        json.dump({"task": task, "dump_path": dump, "rank": [], "step": [], "level": level,
                   task: {"scope": [], "list": [], "data_mode": ["all"], "summary_mode": summary}}, f)
    subprocess.run([sys.executable, "-c", RUN, config, seed, noise], check=True, capture_output=True)
    shutil.copytree(glob.glob(os.path.join(dump, "step0", "*"))[0], os.path.join(out, side, "proc0"))
shutil.rmtree(work)
