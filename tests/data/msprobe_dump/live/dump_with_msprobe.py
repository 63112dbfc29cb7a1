import sys, json, torch
sys.path.insert(0, "/work/main/tests/data/msprobe_dump/live")
from live_model import make_model, make_input, run
from msprobe.pytorch import PrecisionDebugger
out, variant, exact, task = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
m = make_model(variant, exact, seed=int(sys.argv[5]) if len(sys.argv) > 5 else 0)
cfg = {"task": task, "dump_path": out, "rank": [], "step": [], "level": "L0",
       "tensor": {"scope": [], "list": [], "data_mode": ["all"]}, "statistics": {"scope": [], "list": [], "data_mode": ["all"]}}
json.dump(cfg, open(out + ".cfg.json", "w"))
dbg = PrecisionDebugger(config_path=out + ".cfg.json")
import os; x = make_input(exact, int(os.environ.get("LIVE_ROWS", "4")))
dbg.start(m)
run(m, x)
dbg.stop(); dbg.step()
