#!/usr/bin/env python3
"""live_model.py's model dumped by msprobe's own PyTorch dumper at level L0, the files of this
directory's case (README.md): python3 dump_with_msprobe.py OUT VARIANT EXACT TASK [SEED], in a venv
with torch and mindstudio-probe. VARIANT 0 is the bench run, 2 the NPU run of the committed case;
EXACT 1 for integer weights and inputs; TASK tensor, statistics or md5. LIVE_ROWS sets the input's rows;
LIVE_MODEL=sharded dumps the DTensor model instead (a gloo group of one process), LIVE_MODEL=train
the model trained one step (forward and backward).
The dump lands in OUT/step0/proc<pid>/."""
import json
import os
import sys

from msprobe.pytorch import PrecisionDebugger

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_model import (init_one_process, make_input, make_model, make_sharded_input,  # noqa: E402
                        make_sharded_model, make_train_input, make_train_model, run, train)

out, variant, exact, task = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
kind = os.environ.get("LIVE_MODEL", "")
sharded = kind == "sharded"
if sharded:
    init_one_process()
    model = make_sharded_model(variant)
elif kind == "train":
    model = make_train_model(variant)
else:
    model = make_model(variant, exact, seed=int(sys.argv[5]) if len(sys.argv) > 5 else 0)
# TASK md5: statistics with msprobe's md5 summary (each tensor's CRC-32).
mode = "statistics" if task == "md5" else task
config = {"task": mode, "dump_path": out, "rank": [], "step": [], "level": "L0",
          mode: {"scope": [], "list": [], "data_mode": ["all"]}}
if task == "md5":
    config[mode]["summary_mode"] = "md5"
with open(out + ".cfg.json", "w") as f:
    json.dump(config, f)
debugger = PrecisionDebugger(config_path=out + ".cfg.json")
if kind == "train":
    x = make_train_input()
elif sharded:
    x = make_sharded_input()
else:
    x = make_input(exact, int(os.environ.get("LIVE_ROWS", "4")))
debugger.start(model)
(train if kind == "train" else run)(model, x)
debugger.stop()
debugger.step()
