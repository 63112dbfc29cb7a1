#!/usr/bin/env python3
"""One run of a random small PyTorch model for bench/live/vs_msprobe_live.sh:
python3 random_run.py OUT SEED TASK SIDE [ROWS]
SIDE "npu": msprobe dumps it at level L0 (forward and backward) into OUT, its weights nudged by
1e-3; "bench": msprobe dumps it the same way; "live": dumpcmp.live compares it, as it runs, with
OUT/npu's dump and writes OUT/live. DATA_MODE=forward dumps and compares the bench run's forward
only. TASK: tensor, statistics or md5 (statistics with each tensor's CRC-32). The model: 2-6 layers (Linear, ReLU, LayerNorm, GELU, Dropout(0), a block that takes
keyword arguments and returns a tuple, one layer called twice) of width 4-64 in float32, bfloat16 or
float16, inputs of 0.01-100 with a NaN now and then; ROWS (default 1-8) makes tensors long
enough for OpenBLAS to cut them per thread."""
import glob
import json
import os
import random
import sys
import time

import torch
import torch.nn as nn

out, seed, task, side = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
random.seed(seed)
torch.manual_seed(seed)
width = random.choice([4, 16, 64])


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, x, scale=1.0, mask=None):
        y = self.fc(x) * scale
        return (y if mask is None else y * mask), y.sum()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        kinds = {"linear": lambda: nn.Linear(width, width), "relu": nn.ReLU,
                 "norm": lambda: nn.LayerNorm(width), "gelu": nn.GELU,
                 "drop": lambda: nn.Dropout(0.0)}
        self.layers = nn.ModuleList([kinds[random.choice(list(kinds))]()
                                     for _ in range(random.randint(2, 6))])
        self.block = Block()

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        x, total = self.block(x, scale=0.5, mask=x > 0)
        return self.layers[0](x), total  # the first layer called twice


model = Net()
with torch.no_grad():
    for p in model.parameters():
        p.add_(torch.randn_like(p) * (1e-3 if side == "npu" else 0.0))
dtype = random.choice([torch.float32, torch.float32, torch.bfloat16, torch.float16])
model = model.to(dtype)
rows = int(sys.argv[5]) if len(sys.argv) > 5 else random.choice([1, 3, 8])
x = (torch.randn(rows, width) * random.choice([0.01, 1, 100])).to(dtype)
if random.random() < 0.2:
    x[0, 0] = float("nan")
x.requires_grad_()


def step():
    y, total = model(x)
    (y.float().pow(2).mean() + total.float()).backward()


os.makedirs(out, exist_ok=True)
start = time.perf_counter()
if side == "live":
    from dumpcmp.live import LiveCompare
    npu = glob.glob(os.path.join(out, "npu", "step0", "*", "dump.json"))[0]
    with LiveCompare(npu, out=os.path.join(out, "live"),
                     data_mode=os.environ.get("DATA_MODE", "all")).watch(model):
        step()
else:
    from msprobe.pytorch import PrecisionDebugger
    modes = ["all"] if side == "npu" else [os.environ.get("DATA_MODE", "all")]
    mode = "statistics" if task == "md5" else task  # md5: statistics with CRC-32s
    config = {"task": mode, "dump_path": os.path.join(out, side), "rank": [], "step": [],
              "level": "L0", mode: {"scope": [], "list": [], "data_mode": modes}}
    if task == "md5":
        config[mode]["summary_mode"] = "md5"
    with open(os.path.join(out, side + ".json"), "w") as f:
        json.dump(config, f)
    debugger = PrecisionDebugger(config_path=os.path.join(out, side + ".json"))
    debugger.start(model=model)
    step()
    debugger.stop()
    debugger.step()
print("%s %.3f s" % (side, time.perf_counter() - start))
