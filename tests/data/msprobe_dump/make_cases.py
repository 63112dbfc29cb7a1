#!/usr/bin/env python3
"""Writes the msprobe dump.json pairs of tests/cli/test_probe_compare.sh (see README.md):
python3 make_cases.py OUT_DIR. Each case is OUT_DIR/<case>/{npu,bench}/<rank or proc dir>/dump.json."""
import json
import os
import sys

out = sys.argv[1]
nan, inf = float('nan'), float('inf')

# ---- mixed: every kind of leaf and most of msprobe's rules, with a stack.json -------------------
nan, inf = float('nan'), float('inf')
def t(dtype, shape, mx, mn, mean, norm, rg=None, **kw):
    d = {"type": "torch.Tensor", "dtype": dtype, "shape": shape, "Max": mx, "Min": mn, "Mean": mean, "Norm": norm}
    if rg is not None: d["requires_grad"] = rg
    d.update(kw); return d
def v(typ, value): return {"type": typ, "value": value}
npu = {
 "Functional.linear.0.forward": {"input_args": [t("torch.float32", [2, 3], 1.5, -2.0, 0.25, 3.0, True), t("torch.float32", [3, 3], 0.5, -0.5, 0.0, 1.0, True), None],
   "input_kwargs": {"bias": None, "alpha": v("float", 1.0), "mode": v("str", "mean"), "flag": v("bool", True), "n": v("int", 3)},
   "output": [t("torch.float32", [2, 3], 4.0, -4.0, 0.5, 10.0, True)]},
 "Functional.relu.0.forward": {"input_args": [t("torch.float16", [4], nan, -1.0, 0.1, 2.0, False)], "output": [t("torch.float16", [4], inf, 0.0, 0.2, 2.5, False)]},
 "Tensor.add.0.forward": {"input_args": [t("torch.int64", [5], 5, 0, 2.0, 7.0, False), v("int", 2)], "output": [t("torch.int64", [5], 7, 2, 4.0, 9.0, False)]},
 "Tensor.mul.0.forward": {"input_args": [t("torch.float32", [1], -0.0, 0.0, 5, 1e-05, False), v("float", 0.5)], "output": [t("torch.bfloat16", [1], 3.4e38, -3.4e38, 1e16, 0.0, False)]},
 "Torch.cat.0.forward": {"input_args": [[t("torch.float32", [2], 1.0, 0.0, 0.5, 1.0, True), t("torch.float32", [2], 2.0, 1.0, 1.5, 2.2, True)], v("int", 0)], "output": [t("torch.float32", [4], 2.0, 0.0, 1.0, 2.4, True)]},
 "Tensor.view.0.forward": {"input_args": [t("torch.float32", [6], 1.0, 0.0, 0.5, 1.0), {"type": "torch.Size", "value": [2, 3]}, {"type": "slice", "value": [0, 2, None]}, {"type": "ellipsis", "value": "..."}], "output": [t("torch.float32", [2, 3], 1.0, 0.0, 0.5, 1.0)]},
 "Distributed.send.0.forward": {"input_kwargs": {"dst": v("int", 1), "group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1]}}, "input_args": [t("torch.float32", [2], 1.0, 1.0, 1.0, 1.4)]},
 "Tensor.to.0.forward": {"input_args": [t("torch.float32", [2], 1.0, 0.0, 0.5, 1.0), v("str", "npu:0")], "output": [t("torch.float16", [2], 1.0, 0.0, 0.5, 1.0)]},
 "Distributed._all_gather_base.0.forward": {"input_args": [t("torch.float32", [4], nan, 0.0, 0.5, 1.0)], "output": [t("torch.float32", [4], 9.0, 0.0, 0.5, 1.0)]},
 "Functional.dropout.0.forward": {"input_args": [t("torch.float32", [8], 1.0, 0.0, 0.5, 1.0)], "output": [t("torch.float32", [8], 1.0, 0.0, 0.5, 5.0)]},
 "Functional.gelu.0.forward": {"input_args": [t("torch.float32", [8], 1.0, 0.0, 0.5, 1.0)], "output": [t("torch.float32", [8], 1.0, 0.0, 0.5, 1.02)]},
 "Functional.only_npu.0.forward": {"input_args": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0)]},
 "Functional.relu.1.forward": {"input_args": [t("torch.float32", [4], 1.0, -1.0, 0.1, 2.0, True)], "output": [t("torch.float32", [4], 1.0, 0.0, 0.2, 2.5, False)]},
 "Functional.relu.7.backward": {"input": [t("torch.float32", [4], 1.0, -1.0, 0.1, 2.0)], "output": [t("torch.float32", [4], 1.0, 0.0, 0.2, 2.5)]},
 "Functional.relu.3.backward": {"input": [t("torch.float32", [4], 2.0, -1.0, 0.1, 2.0)], "output": [t("torch.float32", [4], 1.0, 0.0, 0.2, 2.5)]},
 "Module.fc.Linear.forward.0": {"input_args": [t("torch.float32", [2, 3], 1.0, 0.0, 0.5, 1.0)], "output": [t("torch.float32", [2, 4], 1.0, 0.0, 0.5, 1.0)], "parameters": {"weight": t("torch.float32", [4, 3], 0.1, -0.1, 0.0, 0.5, True), "bias": t("torch.float32", [4], 0.1, -0.1, 0.0, 0.2, True)}},
 "Module.fc.Linear.backward.0": {"input": [t("torch.float32", [2, 4], 1.0, 0.0, 0.5, 1.0)], "output": [t("torch.float32", [2, 3], 1.0, 0.0, 0.5, 1.0)]},
 "Module.fc.Linear.parameters_grad.0": {"weight": [t("torch.float32", [4, 3], 0.1, -0.1, 0.0, 0.5)], "bias": [t("torch.float32", [4], 0.1, -0.1, 0.0, 0.2)]},
 "Tensor.__setitem__.0.forward": {"input_args": [t("torch.float32", [4], inf, 0.0, 0.5, 1.0)], "output": [t("torch.float32", [4], 1.0, 0.0, 0.5, 1.0)]},
 "Functional.boolop.0.forward": {"input_args": [t("torch.bool", [3], True, False, None, None)], "output": [t("torch.bool", [3], True, True, None, None)]},
 "Functional.silu.0.forward": {"is_recompute": False, "input_args": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0)]},
 "weird_key": {"input_args": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0)]},
}
bench = json.loads(json.dumps(npu))
bench["Functional.linear.0.forward"]["input_args"][0]["Max"] = 1.5000001
bench["Functional.linear.0.forward"]["input_args"][0]["requires_grad"] = False
bench["Functional.linear.0.forward"]["input_kwargs"]["alpha"]["value"] = 2.0
bench["Functional.linear.0.forward"]["output"][0]["Norm"] = 12.5
bench["Functional.relu.0.forward"]["input_args"][0]["dtype"] = "torch.float32"
bench["Functional.relu.0.forward"]["input_args"][0]["Max"] = 1.0
bench["Functional.relu.0.forward"]["output"][0]["dtype"] = "torch.int32"
bench["Tensor.add.0.forward"]["input_args"][0]["Max"] = 4
bench["Tensor.add.0.forward"]["output"][0]["shape"] = [6]
bench["Tensor.mul.0.forward"]["input_args"][0]["Max"] = 0.0
bench["Tensor.mul.0.forward"]["input_args"][0]["Mean"] = 5.0
bench["Tensor.mul.0.forward"]["input_args"][0]["Norm"] = 0
bench["Tensor.mul.0.forward"]["output"][0]["Max"] = -3.4e38
bench["Tensor.mul.0.forward"]["output"][0]["Min"] = inf
bench["Tensor.mul.0.forward"]["output"][0]["Mean"] = -inf
bench["Tensor.mul.0.forward"]["output"][0]["Norm"] = nan
bench["Tensor.to.0.forward"]["input_args"][1]["value"] = "cpu"
bench["Functional.dropout.0.forward"]["output"][0]["Norm"] = 1.0
bench["Functional.gelu.0.forward"]["input_args"][0]["Norm"] = 1.001
bench["Torch.cat.0.forward"]["input_args"].append(t("torch.float32", [2], 2.0, 1.0, 1.5, 2.2, True))
del bench["Functional.only_npu.0.forward"]
bench["Functional.only_bench.0.forward"] = {"input_args": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0)]}
r7 = bench.pop("Functional.relu.7.backward"); r3 = bench.pop("Functional.relu.3.backward")
bench["Functional.relu.11.backward"] = r7; bench["Functional.relu.12.backward"] = r3
bench["Functional.relu.12.backward"]["input"][0]["Max"] = 3.0
bench["Module.fc.Linear.parameters_grad.0"]["bias"][0]["Norm"] = 0.4
bench["Functional.boolop.0.forward"]["output"][0]["Min"] = False
for side, data in (("npu", npu), ("bench", bench)):
    os.makedirs(f"{out}/mixed/{side}/rank0", exist_ok=True)
    json.dump({"task": "statistics", "level": "mix", "framework": "pytorch", "dump_data_dir": None, "data": data},
              open(f"{out}/mixed/{side}/rank0/dump.json", "w"), indent=1)
stack = {"0": [["Functional.linear.0.forward", "Functional.relu.0.forward"], ["File a.py, line 1, in f, \n x = 'y'", "File \"b.py\", line 2"]],
         "1": [["Tensor.add.0.forward"], ["File c.py, line 3, in g, \n return x+1"]]}
json.dump(stack, open(f"{out}/mixed/npu/rank0/stack.json", "w"))

# ---- small cases: pandas' column types, md5 mode, no match, backward renumbering, ranks -------
def write(case, side, data, task="statistics"):
    os.makedirs(f"{out}/{case}/{side}/proc12", exist_ok=True)
    json.dump({"task": task, "level": "L1", "framework": "pytorch", "data": data}, open(f"{out}/{case}/{side}/proc12/dump.json", "w"))
# numbers only: ints and floats, every row matched -> float64 columns
npu = {"Tensor.add.0.forward": {"input_args": [t("torch.int64", [3], 5, 1, 3, 6), t("torch.float32", [3], 2.5, 1, 2, 3.0)], "output": [t("torch.int64", [3], 7, 2, 4, 9)]},
       "Tensor.add.1.forward": {"input_args": [t("torch.int64", [3], 5, 1, 3, 6)], "output": [t("torch.int64", [3], 70, 2, 4, 9)]}}
bench = json.loads(json.dumps(npu)); bench["Tensor.add.0.forward"]["input_args"][0]["Max"] = 4; bench["Tensor.add.1.forward"]["output"][0]["Max"] = 7
write("numbers", "npu", npu); write("numbers", "bench", bench)
# ints only -> int64 columns
npu = {"Tensor.add.0.forward": {"input_args": [t("torch.int64", [3], 5, 1, 3, 6)], "output": [t("torch.int64", [3], 7, 2, 4, 9)]}}
bench = json.loads(json.dumps(npu)); bench["Tensor.add.0.forward"]["output"][0]["Max"] = 3; bench["Tensor.add.0.forward"]["output"][0]["Min"] = 0
write("ints", "npu", npu); write("ints", "bench", bench)
# md5
def m(dtype, shape, md5): return {"type": "torch.Tensor", "dtype": dtype, "shape": shape, "md5": md5}
npu = {"Functional.linear.0.forward": {"input_args": [m("torch.float32", [2], "aabbccdd"), {"type": "int", "value": 3}, None], "output": [m("torch.float32", [2], "11223344")]},
       "Functional.relu.0.forward": {"input_args": [m("torch.float32", [2], "aabbccdd")], "output": [m("torch.float16", [2], "00000000")]}}
bench = json.loads(json.dumps(npu)); bench["Functional.linear.0.forward"]["output"][0]["md5"] = "99999999"
bench["Functional.linear.0.forward"]["input_args"][1]["value"] = 4
bench["Functional.relu.0.forward"]["output"][0]["dtype"] = "torch.int8"
write("md5", "npu", npu); write("md5", "bench", bench)
# nothing matches by name
write("nomatch", "npu", {"Tensor.a.0.forward": {"input_args": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0)]}})
write("nomatch", "bench", {"Tensor.b.0.forward": {"input_args": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0)]}})
# duplicate keys on the bench side through backward renumbering collisions and a formula string
npu = {"Functional.x.0.forward": {"input_args": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0)]}, "Functional.x.5.backward": {"input": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0)]}}
bench = {"Functional.x.0.forward": {"input_args": [t("torch.float32", [1], 2.0, 1.0, 1.0, 1.0)]}, "Functional.x.9.backward": {"input": [t("torch.float32", [1], 1.0, 1.0, 1.0, 1.0), t("torch.float32", [1], 3.0, 1.0, 1.0, 1.0)]}}
write("renumber", "npu", npu); write("renumber", "bench", bench)

# Two ranks (and entries msprobe's rank pattern skips) paired by position.
for side in ("npu", "bench"):
    for rank, case in (("rank0", "numbers"), ("rank1", "renumber")):
        os.makedirs(f"{out}/ranks/{side}/{rank}", exist_ok=True)
        with open(f"{out}/{case}/{side}/proc12/dump.json") as src:
            text = src.read()
        with open(f"{out}/ranks/{side}/{rank}/dump.json", "w") as dst:
            dst.write(text)
os.makedirs(f"{out}/ranks/npu/rank01", exist_ok=True)
os.makedirs(f"{out}/ranks/npu/other", exist_ok=True)

# ---- -fm's queue walk, in md5 mode (whose bench columns msprobe 26.2.0 keeps in place) ----------
def fm_op(i, o, in_dtype="torch.float32"):
    return {"input_args": [m(in_dtype, [2], i)], "output": [m("torch.float32", [2], o)]}
fuzzy = {
    # bench call numbers renumbered, an NPU-only op in the middle, a Module and a backward call,
    # and the NPU run longer at the end: the walk stops there and drops the last rows
    "fuzzy_walk": ({"Functional.conv2d.0.forward": fm_op("a", "b"), "Functional.relu.0.forward": fm_op("c", "d"),
                    "Functional.extra.0.forward": fm_op("e", "f"), "Functional.relu.1.forward": fm_op("g", "h"),
                    "Module.conv1.Conv2d.forward.0": fm_op("i", "j"), "Functional.relu.3.backward": fm_op("k", "l"),
                    "Functional.tail.0.forward": fm_op("m", "n"), "Functional.tail.1.forward": fm_op("o", "p"),
                    "Functional.tail.2.forward": fm_op("q", "r")},
                   {"Functional.conv2d.7.forward": fm_op("a", "b"), "Functional.relu.9.forward": fm_op("c", "d"),
                    "Functional.relu.10.forward": fm_op("g", "x"), "Module.conv1.Conv2d.forward.0": fm_op("i", "j"),
                    "Functional.relu.8.backward": fm_op("k", "l"), "Functional.tail.5.forward": fm_op("m", "n")}),
    # the bench run longer, a bench-only op first, a pair the dtype condition refuses
    "fuzzy_benchlong": ({"Functional.a.0.forward": fm_op("1", "2"), "Functional.b.0.forward": fm_op("3", "4", "torch.int8")},
                        {"Functional.z.0.forward": fm_op("9", "9"), "Functional.a.4.forward": fm_op("1", "2"),
                         "Functional.b.2.forward": fm_op("3", "4"), "Functional.c.0.forward": fm_op("5", "6")}),
    # "forward" inside a module path and twice in a name
    "fuzzy_names": ({"Module.feedforward.Linear.forward.0": fm_op("1", "2"), "Functional.forward_x.0.forward": fm_op("3", "4")},
                    {"Module.feedforward.Linear.forward.1": fm_op("1", "2"), "Functional.forward_x.2.forward": fm_op("3", "5")}),
}
for case, (npu, bench) in fuzzy.items():
    write(case, "npu", npu); write(case, "bench", bench)
