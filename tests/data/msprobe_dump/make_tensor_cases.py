#!/usr/bin/env python3
"""Writes the tensor-mode msprobe dumps of tests/cli/test_probe_compare.sh (see README.md), with
torch.save's .pt files: python3 make_tensor_cases.py OUT_DIR (needs torch; run once, the output is
committed). OUT_DIR/tensor/{npu,bench}/proc0/ hold dump.json, stack.json and dump_tensor_data/;
OUT_DIR/tensor_ranks/{npu,bench}/rank{0,1}/ two ranks of a smaller run; OUT_DIR/tensor_grouped the
grouped ops whose outputs msprobe cuts; OUT_DIR/tensor_mindspore a MindSpore run with .npy data; OUT_DIR/tensor_cross a MindSpore run
against a PyTorch one. Named cases after OUT_DIR make only those."""
import json
import os
import sys

import numpy as np
import torch

from dumper_stats import stats

out = sys.argv[1]
torch.manual_seed(7)
nan, inf = float('nan'), float('inf')


class Side:
    def __init__(self, root):
        self.root = root
        self.data = os.path.join(root, "dump_tensor_data")
        os.makedirs(self.data, exist_ok=True)
        self.ops = {}

    def tensor(self, name, t, requires_grad=False, save=True, file_name=None):
        mx, mn, mean, norm = stats(t)
        data_name = file_name or name + ".pt"
        if save:
            torch.save(t, os.path.join(self.data, data_name))
        return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape), "Max": mx,
                "Min": mn, "Mean": mean, "Norm": norm, "requires_grad": requires_grad,
                "data_name": data_name}

    def write(self, stack=None):
        with open(os.path.join(self.root, "dump.json"), "w") as f:
            json.dump({"task": "tensor", "level": "mix", "framework": "pytorch",
                       "dump_data_dir": self.data, "data": self.ops}, f, indent=1)
        if stack is not None:
            with open(os.path.join(self.root, "stack.json"), "w") as f:
                json.dump(stack, f, indent=1)


def op(sides, key, inputs, outputs, kwargs=None, params=None, backward=False):
    """inputs/outputs: lists of (npu tensor or scalar value, bench ...) pairs; None skips a side."""
    for i, side in enumerate(sides):
        def leaf(kind, k, pair):
            v = pair[i]
            if v is None:
                return None
            if isinstance(v, torch.Tensor):
                return side.tensor(f"{key}.{kind}.{k}", v)
            if isinstance(v, dict):
                return v
            return {"type": type(v).__name__, "value": v}
        entry = {}
        entry["input" if backward else "input_args"] = [leaf("input", k, p) for k, p in enumerate(inputs)]
        if kwargs:
            entry["input_kwargs"] = {k: leaf("input", k, p) for k, p in kwargs.items()}
        elif not backward:
            entry["input_kwargs"] = {}
        entry["output"] = [leaf("output", k, p) for k, p in enumerate(outputs)]
        if params:
            entry["parameters"] = {k: leaf("parameters", k, p) for k, p in params.items()}
        side.ops[key] = entry


def noisy(t, scale):
    return (t.double() + torch.randn(t.shape, dtype=torch.float64) * scale).to(t.dtype)


def tensor_case(root):
    npu, bench = Side(f"{root}/npu/proc0"), Side(f"{root}/bench/proc0")
    s = [npu, bench]
    x = torch.randn(4, 8)
    w = torch.randn(8, 8)
    op(s, "Functional.linear.0.forward", [(x, x.clone()), (noisy(w, 1e-4), w)],
       [(noisy(x @ w, 1e-3), x @ w)], kwargs={"bias": (None, None)})
    h16 = torch.randn(16, 16).half()
    op(s, "Functional.relu.0.forward", [(h16, h16.float())], [(noisy(h16, 1e-2), h16)])
    b = torch.randn(64).bfloat16()
    op(s, "Functional.gelu.0.forward", [(b, b.float())], [(noisy(b, 1e-2), b)])
    f8 = torch.randn(40).to(torch.float8_e4m3fn)
    f85 = torch.randn(40).to(torch.float8_e5m2)
    op(s, "Tensor.to.0.forward", [(f8, f8.float()), (f85, noisy(f85.float(), 0.1))],
       [(f85, f85), (torch.randn(9, dtype=torch.float64), torch.randn(9, dtype=torch.float64))])
    idx = torch.randint(0, 10, (8,))
    op(s, "Functional.embedding.0.forward",
       [(idx, idx.clone()), (idx.int(), (idx + 1).int()), (idx.to(torch.int8), idx.to(torch.int8)),
        (idx.to(torch.int16), -idx.to(torch.int16)), (idx.to(torch.uint8), idx.to(torch.uint8) * 2),
        (idx.to(torch.uint16), idx.to(torch.uint16)), (idx > 4, idx > 5)],
       [(torch.randn(8, 3), torch.randn(8, 3))])
    # 0-d and one-element tensors: only MaxAbsErr and MaxRelativeErr, in the arrays' own types
    op(s, "Tensor.item.0.forward",
       [(torch.tensor(3.5), torch.tensor(3.25)), (torch.tensor([1.5]), torch.tensor([0.0])),
        (torch.tensor([[2.0]]).half(), torch.tensor([[2.5]]).half()),
        (torch.tensor(3, dtype=torch.uint8), torch.tensor(5, dtype=torch.uint8)),
        (torch.tensor(-128, dtype=torch.int8), torch.tensor(0, dtype=torch.int8)),
        (torch.tensor(7), torch.tensor(9)), (torch.tensor(True), torch.tensor(False)),
        (torch.tensor(inf), torch.tensor(inf)), (torch.tensor(nan), torch.tensor(1.0)),
        (torch.tensor(2, dtype=torch.int32), torch.tensor(2.5)),
        (torch.tensor(1.0, dtype=torch.float64), torch.tensor(3.0).half())],
       [(torch.tensor(1.0).bfloat16(), torch.tensor(1.0078125))])
    # empty tensors
    op(s, "Tensor.new_zeros.0.forward", [(torch.zeros(0), torch.zeros(0)), (torch.zeros(2, 0), torch.zeros(2, 0))],
       [(torch.zeros(0), torch.zeros(3))])
    # NaN / inf at the same places, at different places, +inf against -inf
    a = torch.randn(32)
    a_nan = a.clone(); a_nan[3] = nan; a_nan[5] = inf
    b_nan = noisy(a, 1e-3); b_nan[3] = nan; b_nan[5] = -inf
    c_nan = a.clone(); c_nan[4] = nan
    op(s, "Functional.softmax.0.forward", [(a_nan, b_nan), (a_nan, c_nan)], [(c_nan, a)])
    # zeros on the bench side, on both sides, on the NPU side; huge values
    z = torch.zeros(20)
    big = torch.full((20,), 3e38)
    op(s, "Functional.mul.0.forward", [(a[:20].clone(), z), (z, z.clone()), (z.clone(), a[:20].clone())],
       [(big, -big), (noisy(a, 0.5), a)])
    # shapes: different, and equal only after squeeze
    op(s, "Tensor.reshape.0.forward", [(torch.randn(4, 8), torch.randn(8, 4)), (a[:4].reshape(4, 1), a[:4].reshape(1, 4))],
       [(torch.randn(2, 3), torch.randn(3, 2))])
    # long tensors: cut into parts by OpenBLAS's threads (over 10,000 elements), tails of 16
    long_x = torch.randn(20011)
    op(s, "Functional.matmul.0.forward", [(long_x, noisy(long_x, 1e-5)), (long_x[:10001].clone(), long_x[:10001].clone())],
       [(torch.randn(12000).double(), torch.randn(12000).double())])
    # a strided view, saved with its whole storage
    base = torch.randn(6, 10)
    op(s, "Tensor.transpose.0.forward", [(base.t(), base.t().contiguous()), (base[2:, ::3], noisy(base[2:, ::3].contiguous(), 1e-3))],
       [(base, base)])
    # non-tensor arguments and kwargs, parameters, backward, missing ops either side
    op(s, "Module.fc.Linear.forward.0", [(x, x), (2.0, 2.0), (3, 4)], [(x @ w, noisy(x @ w, 1e-6))],
       kwargs={"scale": (torch.ones(3), torch.ones(3) * 1.001), "mode": ("sum", "sum")},
       params={"weight": (w, noisy(w, 1e-7)), "bias": (torch.zeros(8), torch.zeros(8))})
    op(s, "Module.fc.Linear.backward.0", [(x @ w, x @ w)], [(x, noisy(x, 0.1))], backward=True)
    op([npu], "Functional.only_npu.0.forward", [(x,)], [(x,)])
    op([bench], "Functional.only_bench.0.forward", [(x,)], [(x,)])
    # the checkers: Cosine falls from input to output; One Thousandth Err Ratio too
    op(s, "Functional.silu.0.forward", [(a, a.clone())], [(torch.randn(32), a)])
    grouped_ops(s, x)  # not cut here: the bench-only op above makes msprobe's lengths floats
    # a data file that is missing, and one that is damaged
    op(s, "Functional.tanh.0.forward", [(a, a.clone())], [(a, a.clone())])
    os.remove(os.path.join(bench.data, "Functional.tanh.0.forward.output.0.pt"))
    with open(os.path.join(npu.data, "Functional.tanh.0.forward.input.0.pt"), "r+b") as f:
        f.truncate(100)
    npu.write(stack={"Functional.linear.0.forward": ["File train.py, line 10, in forward, y = linear(x)"],
                     "Functional.softmax.0.forward": ["File train.py, line 12, in forward, p = softmax(y)"]})
    bench.write()


def grouped_ops(s, x):
    """Grouped ops: msprobe cuts the NPU side's outputs to the sum of the group tensor kwarg (zeros
    after), unless the group tensor is not of integers."""
    gm_out = torch.randn(6, 4)
    op(s, "NPU.npu_grouped_matmul.0.forward", [(x, x.clone())], [(gm_out, noisy(gm_out, 1e-3)), (gm_out[0].clone(), gm_out[0].clone())],
       kwargs={"group_list": (torch.tensor([2, 1]), torch.tensor([2, 1]))})
    op(s, "NPU.npu_dequant_swiglu_quant.0.forward", [(x, x.clone())], [(gm_out, gm_out.clone())],
       kwargs={"group_index": (torch.tensor([1.0, 1.0]), torch.tensor([1.0, 1.0]))})
    op(s, "NPU.npu_grouped_matmul.1.forward", [(x, x.clone())], [(gm_out, gm_out.clone())],
       kwargs={"group_list": (torch.tensor([True, False, True]), torch.tensor([True, False, True]))})


def grouped_case(root):
    npu, bench = Side(f"{root}/npu/proc0"), Side(f"{root}/bench/proc0")
    grouped_ops([npu, bench], torch.randn(3, 4))
    npu.write()
    bench.write()


def mindspore_case(root):
    """MindSpore's tensor mode: np.save'd .npy data files, MindSpore's dtype names."""
    import numpy as np
    names = {np.float32: "Float32", np.float16: "Float16", np.float64: "Float64", np.int32: "Int32",
             np.int64: "Int64", np.bool_: "Bool", np.uint8: "UInt8"}
    rng = np.random.default_rng(3)
    for side_name, noise in (("npu", 1e-3), ("bench", 0.0)):
        d = f"{root}/{side_name}/rank0"
        os.makedirs(f"{d}/dump_tensor_data", exist_ok=True)
        data = {}
        def leaf(name, a, file_name=None):
            data_name = file_name or name + ".npy"
            if file_name is None:
                np.save(f"{d}/dump_tensor_data/{data_name}", a)
            f = a.astype(np.float64)
            stats = [float(f.max()), float(f.min()), float(f.mean()), float(np.linalg.norm(f))] if a.size else [None] * 4
            return {"type": "mindspore.Tensor", "dtype": names[a.dtype.type], "shape": list(a.shape),
                    "Max": stats[0], "Min": stats[1], "Mean": stats[2], "Norm": stats[3], "data_name": data_name}
        base = np.random.default_rng(4)
        x = base.standard_normal((4, 8)).astype(np.float32)
        h = base.standard_normal((16,)).astype(np.float16)
        xn = (x + rng.standard_normal(x.shape) * noise).astype(np.float32)
        nan = x.copy(); nan[0, 1] = np.nan
        data["Mint.add.0.forward"] = {"input_args": [leaf("Mint.add.0.forward.input.0", xn), leaf("Mint.add.0.forward.input.1", h),
                                                     leaf("Mint.add.0.forward.input.2", np.arange(6, dtype=np.int32).reshape(2, 3) * (2 if noise else 1))],
                                      "input_kwargs": {}, "output": [leaf("Mint.add.0.forward.output.0", nan)]}
        data["Tensor.sum.0.forward"] = {"input_args": [leaf("Tensor.sum.0.forward.input.0", np.array([[2.5]], np.float64) + noise),
                                                       leaf("Tensor.sum.0.forward.input.1", np.array(True) if noise else np.array(False)),
                                                       leaf("Tensor.sum.0.forward.input.2", np.zeros((0, 3), np.float32))],
                                        "input_kwargs": {}, "output": [leaf("Tensor.sum.0.forward.output.0", np.array([3, 5], np.uint8) + (2 if noise else 0)),
                                                                      leaf("Tensor.sum.0.forward.output.1", x, file_name="Tensor.sum.0.forward.output.1.pt")]}
        data["Cell.net.Dense.forward.0"] = {"input_args": [leaf("Cell.net.Dense.forward.0.input.0", xn if noise else x)],
                                            "input_kwargs": {}, "output": [leaf("Cell.net.Dense.forward.0.output.0", x.T.copy() if noise else x)]}
        with open(f"{d}/dump.json", "w") as f:
            json.dump({"task": "tensor", "level": "mix", "framework": "mindspore", "dump_data_dir": f"{d}/dump_tensor_data", "data": data}, f, indent=1)


def ranks_case(root):
    for r in range(2):
        npu, bench = Side(f"{root}/npu/rank{r}"), Side(f"{root}/bench/rank{r}")
        x = torch.randn(3, 5)
        op([npu, bench], "Functional.linear.0.forward", [(x, noisy(x, 1e-4 * (r + 1)))], [(x * 2, x * 2)])
        npu.write()
        bench.write()


def cross_case(root):
    """A MindSpore run (.npy, MindSpore's names) against a PyTorch one (.pt): dtypes of one kind
    pair, Mint/Functional names pair under -am, Cell paths under -cm."""
    import numpy as np
    names = {np.float32: "Float32", np.float16: "Float16", np.int32: "Int32", np.bool_: "Bool",
             np.uint8: "UInt8"}
    d = f"{root}/npu/rank0"
    os.makedirs(f"{d}/dump_tensor_data", exist_ok=True)
    bench = Side(f"{root}/bench/rank0")
    data = {}
    def leaf(name, a):
        np.save(f"{d}/dump_tensor_data/{name}.npy", a)
        f = a.astype(np.float64)
        st = [float(f.max()), float(f.min()), float(f.mean()), float(np.linalg.norm(f))] if a.size else [None] * 4
        return {"type": "mindspore.Tensor", "dtype": names[a.dtype.type], "shape": list(a.shape),
                "Max": st[0], "Min": st[1], "Mean": st[2], "Norm": st[3], "data_name": name + ".npy"}
    rng = np.random.default_rng(5)
    x = rng.standard_normal((6, 8)).astype(np.float32)
    w = rng.standard_normal((8, 4)).astype(np.float32)
    xn = (x + rng.standard_normal(x.shape) * 1e-3).astype(np.float32)
    y = x @ w
    t = lambda a: torch.from_numpy(a.copy())
    # Mint.matmul (-am: Torch.matmul); Float16 against torch.float32 pairs by kind.
    data["Mint.matmul.0.forward"] = {"input_args": [leaf("Mint.matmul.0.forward.input.0", xn),
                                                    leaf("Mint.matmul.0.forward.input.1", w.astype(np.float16))],
                                     "input_kwargs": {}, "output": [leaf("Mint.matmul.0.forward.output.0", (xn @ w).astype(np.float32))]}
    bench.ops["Torch.matmul.0.forward"] = {"input_args": [bench.tensor("Torch.matmul.0.forward.input.0", t(x)),
                                                          bench.tensor("Torch.matmul.0.forward.input.1", t(w))],
                                           "input_kwargs": {}, "output": [bench.tensor("Torch.matmul.0.forward.output.0", t(y))]}
    # Same names: Int32 against torch.int64, Bool, UInt8 against torch.int16 (both int), Float32
    # against torch.bool (no pair), a shape mismatch, NaN on one side.
    idx = np.arange(12, dtype=np.int32).reshape(3, 4)
    nanx = x.copy(); nanx[1, 2] = np.nan
    data["Tensor.add.0.forward"] = {"input_args": [leaf("Tensor.add.0.forward.input.0", idx),
                                                   leaf("Tensor.add.0.forward.input.1", idx > 5),
                                                   leaf("Tensor.add.0.forward.input.2", np.array([1, 200, 3], np.uint8)),
                                                   leaf("Tensor.add.0.forward.input.3", x[:2])],
                                    "input_kwargs": {}, "output": [leaf("Tensor.add.0.forward.output.0", nanx),
                                                                  leaf("Tensor.add.0.forward.output.1", x)]}
    bench.ops["Tensor.add.0.forward"] = {"input_args": [bench.tensor("Tensor.add.0.forward.input.0", t(idx).long() + 1),
                                                        bench.tensor("Tensor.add.0.forward.input.1", t(idx > 5)),
                                                        bench.tensor("Tensor.add.0.forward.input.2", torch.tensor([1, 201, 3], dtype=torch.int16)),
                                                        bench.tensor("Tensor.add.0.forward.input.3", t(x[:2] > 0))],
                                         "input_kwargs": {}, "output": [bench.tensor("Tensor.add.0.forward.output.0", t(x)),
                                                                       bench.tensor("Tensor.add.0.forward.output.1", t(x[:3]))]}
    # Functional.dense (-am: Functional.linear) and a Cell against a Module (-cm).
    data["Functional.dense.0.forward"] = {"input_args": [leaf("Functional.dense.0.forward.input.0", xn)],
                                          "input_kwargs": {}, "output": [leaf("Functional.dense.0.forward.output.0", (xn @ w).astype(np.float32))]}
    bench.ops["Functional.linear.0.forward"] = {"input_args": [bench.tensor("Functional.linear.0.forward.input.0", t(x))],
                                                "input_kwargs": {}, "output": [bench.tensor("Functional.linear.0.forward.output.0", t(y))]}
    data["Cell.net.Dense.forward.0"] = {"input_args": [leaf("Cell.net.Dense.forward.0.input.0", xn)],
                                        "input_kwargs": {}, "output": [leaf("Cell.net.Dense.forward.0.output.0", y * 1.01)]}
    bench.ops["Module.net.Linear.forward.0"] = {"input_args": [bench.tensor("Module.net.Linear.forward.0.input.0", t(x))],
                                                "input_kwargs": {}, "output": [bench.tensor("Module.net.Linear.forward.0.output.0", t(y))]}
    with open(f"{d}/dump.json", "w") as f:
        json.dump({"task": "tensor", "level": "mix", "framework": "mindspore", "dump_data_dir": f"{d}/dump_tensor_data", "data": data}, f, indent=1)
    bench.write()


def complex_case(root):
    """complex64 and complex128 tensors: msprobe computes on their real parts (astype(float)),
    but a 0-d pair's MaxAbsErr on the complex difference's magnitude."""
    torch.manual_seed(11)
    npu, bench = Side(f"{root}/npu/proc0"), Side(f"{root}/bench/proc0")
    s = [npu, bench]
    a = torch.randn(64, dtype=torch.complex64)
    b = a + 0.001 * torch.randn(64, dtype=torch.complex64)
    op(s, "Torch.fft.0.forward", [(a, b)], [(a * 2, b * 2)])
    c = torch.randn(8, 4, dtype=torch.complex128)
    c_nan, c_inf = c.clone(), c.clone()
    c_nan[0, 0] = complex(nan, 1.0)  # NaN in the real part on one side only: N/A
    c_inf[1, 1] = complex(inf, 0.0)  # inf at the same place on both sides: zeroed
    d = c.clone()
    d[2, 3] = complex(1.0, nan)  # NaN in the imaginary part only: not seen
    op(s, "Torch.ifft.0.forward", [(c, c_nan), (c_inf, c_inf.clone())], [(c, d)])
    big = torch.randn(10007, dtype=torch.complex64)  # OpenBLAS's kernel, cut in two parts
    op(s, "Torch.fft.1.forward", [(big, big + 1e-3 * torch.randn(10007, dtype=torch.complex64))],
       [(big[:33], big[:33].clone())])
    e = torch.randn(5, dtype=torch.complex64)
    op(s, "Torch.mul.0.forward",
       [(e, torch.zeros(5, dtype=torch.complex64)),
        (torch.tensor(1 + 2j, dtype=torch.complex64), torch.tensor(1 + 2.5j, dtype=torch.complex64)),
        (torch.tensor([3 - 1j], dtype=torch.complex128), torch.tensor([2 + 1j], dtype=torch.complex128))],
       [(e, e[:4])])
    npu.write()
    bench.write()


cases = {"tensor": tensor_case, "tensor_ranks": ranks_case, "tensor_grouped": grouped_case,
         "tensor_mindspore": mindspore_case, "tensor_cross": cross_case, "tensor_complex": complex_case}
for name in sys.argv[2:] or cases:  # OUT_DIR [CASE...]: every case, or the named ones
    cases[name](f"{out}/{name}")
