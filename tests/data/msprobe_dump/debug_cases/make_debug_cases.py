"""msprobe's debug level (PrecisionDebugger.save into debug.json), as tests/cli/test_probe_compare.sh
compares it: python make_debug_cases.py OUT_DIR, in a venv with torch and mindstudio-probe, writes
OUT_DIR/{statistics,md5,tensor}/{npu,bench}/proc0/debug.json (and dump_tensor_data/ in tensor
mode). The bench side adds 0.01 to y; the saved variables are a tensor (and its gradient) saved
twice under one name, and a dict holding a tensor, an int and a list with a 0-d tensor and a
float, whose gradient has nulls."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

RUN = """
import sys, torch
from msprobe.pytorch import PrecisionDebugger
torch.manual_seed(0)
debugger = PrecisionDebugger(config_path=sys.argv[1])
x = torch.randn(4, 5, requires_grad=True)
w = torch.randn(5, 3, requires_grad=True)
debugger.start()
y = x @ w + float(sys.argv[2])
PrecisionDebugger.save(y, "y")
z = torch.relu(y)
PrecisionDebugger.save({"z": z, "n": 3, "lst": [z.sum(), 1.5]}, "dict_var")
PrecisionDebugger.save(z, "y")
z.sum().backward()
debugger.stop()
debugger.step()
"""

out = sys.argv[1]
work = tempfile.mkdtemp()
for case, task, summary in (("statistics", "statistics", "statistics"), ("md5", "statistics", "md5"),
                            ("tensor", "tensor", "statistics")):
    for side, noise in (("npu", "0.0"), ("bench", "0.01")):
        dump = os.path.join(work, case, side)
        config = os.path.join(work, f"{case}_{side}.json")
        with open(config, "w") as f:
            json.dump({"task": task, "dump_path": dump, "rank": [], "step": [], "level": "debug",
                       task: {"scope": [], "list": [], "data_mode": ["all"], "summary_mode": summary}}, f)
        subprocess.run([sys.executable, "-c", RUN, config, noise], check=True, capture_output=True)
        proc = glob.glob(os.path.join(dump, "step0", "proc*"))[0]
        shutil.copytree(proc, os.path.join(out, case, side, "proc0"))
shutil.rmtree(work)
