#!/usr/bin/env python3
"""Writes the multi-rank dump pairs of -da (first-diff analysis) for tests/cli/test_probe_compare.sh:
python3 make_diff_cases.py OUT_DIR. Each case is OUT_DIR/<case>/{npu,bench}/rank<R>/dump.json; the
bench side is the NPU side with the changes each case lists. The expected files are msprobe
26.2.0's own (diff_cases/<case>/)."""
import copy
import json
import os
import sys

out = sys.argv[1]


def t(mx, mn=0.0, mean=0.5, norm=1.0, dtype="torch.float32", shape=(4,)):
    return {"type": "torch.Tensor", "dtype": dtype, "shape": list(shape), "Max": mx, "Min": mn,
            "Mean": mean, "Norm": norm, "requires_grad": False}


def m(md5):
    return {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "md5": md5}


def v(typ, value):
    return {"type": typ, "value": value}


def group(*ranks):
    return {"type": "torch.ProcessGroup", "group_ranks": list(ranks), "group_id": "g"}


def op(name, out_max=1.0, in_max=1.0, **kwargs):
    record = {"input_args": [t(in_max)], "output": [t(out_max)]}
    if kwargs:
        record["input_kwargs"] = kwargs
    return name, record


def write(case, ranks_npu, changes, task="statistics", stacks=None):
    """ranks_npu: one list of (key, record) per rank; changes: {rank: {key: {"out": max,
    "in": max}}} applied to the bench side."""
    for rank, ops in enumerate(ranks_npu):
        npu = dict(ops)
        bench = copy.deepcopy(npu)
        for key, change in changes.get(rank, {}).items():
            if "out" in change:
                bench[key]["output"][0]["Max"] = change["out"]
            if "in" in change:
                bench[key]["input_args"][0]["Max"] = change["in"]
            if "md5" in change:
                bench[key]["output"][0]["md5"] = change["md5"]
            if change.get("drop"):
                del bench[key]
        for side, data in (("npu", npu), ("bench", bench)):
            d = f"{out}/{case}/{side}/rank{rank}"
            os.makedirs(d, exist_ok=True)
            with open(f"{d}/dump.json", "w") as f:
                json.dump({"task": task, "level": "L1", "framework": "pytorch", "dump_data_dir": None,
                           "data": data}, f, indent=1)
        if stacks and rank in stacks:
            with open(f"{out}/{case}/npu/rank{rank}/stack.json", "w") as f:
                json.dump(stacks[rank], f)


def compute(i, out_max=1.0):
    return op(f"Functional.linear.{i}.forward", out_max)


def all_reduce(i, *ranks):
    return op(f"Distributed.all_reduce.{i}.forward", group=group(*ranks) if ranks else None)


# before: rank 1 differs before any communication op; rank 0 only after one
ops = [compute(0), compute(1), all_reduce(0, 0, 1), compute(2)]
write("before", [ops, ops], {1: {"Functional.linear.1.forward": {"out": 3.0}},
                            0: {"Functional.linear.2.forward": {"out": 3.0}}})

# across: both ranks agree up to all_reduce.0; then a compute op differs on rank 1 before
# all_reduce.1, whose output differs on both ranks; ignored ops in between
ops = [compute(0), all_reduce(0), op("Torch.empty.0.forward"), compute(1), compute(2),
       all_reduce(1), compute(3), op("Tensor.__setitem__.0.forward")]
write("across", [ops, ops], {
    1: {"Functional.linear.2.forward": {"out": 5.0}, "Distributed.all_reduce.1.forward": {"out": 4.0},
        "Functional.linear.3.forward": {"out": 4.0}},
    0: {"Distributed.all_reduce.1.forward": {"out": 4.0}, "Tensor.__setitem__.0.forward": {"out": 9.0}}},
    stacks={1: {"0": [["Functional.linear.2.forward"], ["File \"train.py\", line 7, in step, \n y = f(x)"]]}})

# comm_only: only communication outputs differ, at different layers on the two ranks
ops = [compute(0), all_reduce(0), compute(1), all_reduce(1), all_reduce(2)]
write("comm_only", [ops, ops], {0: {"Distributed.all_reduce.2.forward": {"out": 4.0}},
                               1: {"Distributed.all_reduce.1.forward": {"out": 4.0}}})

# p2p: rank 0 sends to rank 1 (dst), rank 1 receives from rank 0 (src); a broadcast over a group;
# the recv's output differs on rank 1, and a compute op after it on rank 0
send = op("Distributed.send.0.forward", dst=v("int", 1), group=group(0, 1))
recv = op("Distributed.recv.0.forward", src=v("int", 0))
bcast = op("Distributed.broadcast.0.forward", src=v("int", 0), group=group(0, 1))
write("p2p", [[compute(0), send, bcast, compute(1)], [compute(0), recv, bcast, compute(1)]],
      {1: {"Distributed.recv.0.forward": {"out": 4.0}}, 0: {"Functional.linear.1.forward": {"out": 7.0}}})

# batch: batch_isend_irecv with P2POp arguments (op, peer), a differing compute op before it
def p2p(kind, peer, mx):
    return {"class_type": "torch.distributed.P2POp", "op": kind, "peer": peer, "tag": 0, "tensor": t(mx)}
batch0 = ("Distributed.batch_isend_irecv.0.forward", {"input_args": [[p2p("isend", 1, 1.0), p2p("irecv", 1, 2.0)]], "output": [t(1.0)]})
batch1 = ("Distributed.batch_isend_irecv.0.forward", {"input_args": [[p2p("irecv", 0, 1.0), p2p("isend", 0, 2.0)]], "output": [t(1.0)]})
write("batch", [[all_reduce(0), compute(0), batch0, compute(1)], [all_reduce(0), compute(0), batch1, compute(1)]],
      {0: {"Functional.linear.1.forward": {"out": 3.0}}, 1: {"Functional.linear.0.forward": {"out": 3.0}}})

# after: the differences come after the last communication op only, on both ranks; an
# npu_fusion_attention whose ignored output (4) differs
nfa_outputs = [t(1.0) for _ in range(6)]
nfa = ("Torch.npu_fusion_attention.0.forward", {"input_args": [t(1.0)], "output": nfa_outputs})
ops = [all_reduce(0), nfa, compute(0), compute(1)]
write("after", [ops, ops], {0: {"Functional.linear.1.forward": {"out": 3.0}},
                           1: {"Functional.linear.0.forward": {"out": 3.0}}})
for rank in (0, 1):
    with open(f"{out}/after/bench/rank{rank}/dump.json") as f:
        d = json.load(f)
    d["data"]["Torch.npu_fusion_attention.0.forward"]["output"][4]["Max"] = 9.0
    with open(f"{out}/after/bench/rank{rank}/dump.json", "w") as f:
        json.dump(d, f, indent=1)

# none: nothing differs beyond the threshold (25% on an output, 90% on an input)
ops = [compute(0), all_reduce(0), compute(1)]
write("none", [ops, ops], {0: {"Functional.linear.0.forward": {"out": 1.25, "in": 10.0}}})

# groups: four ranks in two all_reduce groups; rank 2's all_reduce output differs, rank 3 a
# compute op before it, rank 0 and 1 later
ops = lambda g: [compute(0), all_reduce(0, *g), compute(1), all_reduce(1, *g), compute(2)]
write("groups", [ops((0, 1)), ops((0, 1)), ops((2, 3)), ops((2, 3))], {
    2: {"Distributed.all_reduce.1.forward": {"out": 4.0}},
    3: {"Functional.linear.1.forward": {"out": 4.0}},
    0: {"Functional.linear.2.forward": {"out": 4.0}}, 1: {"Functional.linear.2.forward": {"out": 4.0}}})

# md5: md5 mode with a send/recv pair; the recv's output differs
def mop(name, md5, **kwargs):
    record = {"input_args": [m("00000000")], "output": [m(md5)]}
    if kwargs:
        record["input_kwargs"] = kwargs
    return name, record
write("md5", [[mop("Functional.linear.0.forward", "aa"), mop("Distributed.send.0.forward", "bb", dst=v("int", 1)), mop("Functional.linear.1.forward", "cc")],
              [mop("Functional.linear.0.forward", "aa"), mop("Distributed.recv.0.forward", "bb", src=v("int", 0)), mop("Functional.linear.1.forward", "cc")]],
      {1: {"Distributed.recv.0.forward": {"md5": "ff"}}, 0: {"Functional.linear.1.forward": {"md5": "ee"}}})

# tie: both ranks' all_reduce.1 outputs differ, nothing before: one group, two first nodes (msprobe
# lists them in its set order, which changes from run to run; dumpcmp by rank)
ops = [compute(0), all_reduce(0), compute(1), all_reduce(1)]
write("tie", [ops, ops], {0: {"Distributed.all_reduce.1.forward": {"out": 4.0}},
                         1: {"Distributed.all_reduce.1.forward": {"out": 4.0}}})
