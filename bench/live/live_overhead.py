#!/usr/bin/env python3
"""What a run compared as it runs costs, against dumping it and comparing the dumps:
python3 live_overhead.py DEVICE WORK [DUMPCMP_CLI]
DEVICE: cpu or cuda. A stack of Linear+GELU layers (LIVE_LAYERS, default 8; width LIVE_WIDTH,
default 1024 on cuda and 256 on cpu; batch LIVE_BATCH, default 2048 on cuda and 512 on cpu) is run
once with its weights nudged and written as an msprobe L0 tensor dump (dump.json by dumpcmp.live's
recorder, the tensors by torch.save: the NPU run); then, three times each: the bench run alone; the
bench run under dumpcmp.live (open, hooks, forward, result written); and, with DUMPCMP_CLI, the
bench run dumped the same way plus `dumpcmp compare` of the two dumps, whose result must be the
live one's, byte for byte. LIVE_TRAIN=1 makes each run a training step (forward, then backward of
the outputs' mean square): the dumps and the live compare then hold the backward records and the
parameter gradients too. Prints the medians."""
import glob
import json
import os
import shutil
import subprocess
import sys
import time

import torch
import torch.nn as nn

from dumpcmp.live import LiveCompare

device, work = sys.argv[1], sys.argv[2]
cli = sys.argv[3] if len(sys.argv) > 3 else None
cuda = device == "cuda"
layers = int(os.environ.get("LIVE_LAYERS", "8"))
training = os.environ.get("LIVE_TRAIN") == "1"
width = int(os.environ.get("LIVE_WIDTH", "1024" if cuda else "256"))
batch = int(os.environ.get("LIVE_BATCH", "2048" if cuda else "512"))
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def model(nudge):
    torch.manual_seed(0)
    m = nn.Sequential(*[nn.Sequential(nn.Linear(width, width), nn.GELU()) for _ in range(layers)])
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.randn_like(p) * nudge)
    return m.to(device)


x = torch.randn(batch, width, generator=torch.Generator().manual_seed(1)).to(device)


def sync():
    if cuda:
        torch.cuda.synchronize()


def step(m):
    """The run: a forward, or a training step's forward and backward (gradients from zero)."""
    if not training:
        with torch.no_grad():
            m(x)
        return
    m.zero_grad(set_to_none=True)
    m(x).pow(2).mean().backward()


class Recorder(LiveCompare):
    """dumpcmp.live's records of a run, its tensors saved as msprobe saves them: an msprobe dump."""

    def __init__(self, out, empty):
        super().__init__(empty, out=out)
        self.task = "tensor"
        self.data = os.path.join(out, "dump_tensor_data")
        os.makedirs(self.data, exist_ok=True)

    def _compare(self, data_name, t):
        torch.save(t.clone().contiguous().detach(), os.path.join(self.data, data_name))

    def write(self):
        self._remove_hooks()
        with open(os.path.join(self.out, "dump.json"), "w") as f:
            json.dump(self.bench_dump(), f)


def dump(m, out):
    empty = os.path.join(work, "empty.json")
    with open(empty, "w") as f:
        json.dump({"task": "tensor", "level": "L0", "framework": "pytorch", "data": {}}, f)
    recorder = Recorder(out, empty).watch(m)
    step(m)
    sync()
    recorder.write()


npu = os.path.join(work, "npu")
dump(model(1e-3), npu)
bench = model(0.0)
times = {"bench run alone": [], "bench run, compared as it runs": []}
if cli:
    times["bench run dumped, then dumpcmp compare"] = []
for rep in range(3):
    sync()
    start = time.perf_counter()
    step(bench)
    sync()
    times["bench run alone"].append(time.perf_counter() - start)

    live_out = os.path.join(work, "live%d" % rep)
    start = time.perf_counter()
    with LiveCompare(os.path.join(npu, "dump.json"), out=live_out).watch(bench):
        step(bench)
    times["bench run, compared as it runs"].append(time.perf_counter() - start)

    if cli:
        out = os.path.join(work, "offline%d" % rep)
        start = time.perf_counter()
        dump(bench, os.path.join(work, "bench%d" % rep))
        subprocess.run([cli, "compare", "-tp", os.path.join(npu, "dump.json"), "-gp",
                        os.path.join(work, "bench%d" % rep, "dump.json"), "-o", out], check=True,
                       stdout=subprocess.DEVNULL)
        times["bench run dumped, then dumpcmp compare"].append(time.perf_counter() - start)
        mine = glob.glob(os.path.join(live_out, "compare_result_*.csv"))[0]
        theirs = glob.glob(os.path.join(out, "compare_result_*.csv"))[0]
        with open(mine, "rb") as a, open(theirs, "rb") as b:
            if a.read() != b.read():
                sys.exit("FAIL: the live result differs from the offline compare's: %s %s"
                         % (mine, theirs))
        shutil.rmtree(os.path.join(work, "bench%d" % rep))
tensors = len(glob.glob(os.path.join(npu, "dump_tensor_data", "*.pt")))
size = sum(os.path.getsize(f) for f in glob.glob(os.path.join(npu, "dump_tensor_data", "*.pt")))
print("%s%s: %d layers of %d x %d, %d tensors, %.0f MB per side" % (
    device, ", training step" if training else "", layers, batch, width, tensors, size / 1e6))
for label, values in times.items():
    print("  %-42s median %.3f s (min %.3f, max %.3f)" % (label, sorted(values)[1], min(values),
                                                          max(values)))
