#!/usr/bin/env python3
"""A random verl train-against-infer pair for --consistent_check (bench/vs_msprobe_random.sh
MAKER=verl): OUT/npu/rank0 is the training side, a Qwen2-like model's module dump (msprobe's L0 or
mix level) under FSDP (`Module._fsdp_wrapped_module.model.layers.0._fsdp_wrapped_module.self_attn
.q_proj.Linear.forward.0`) or Megatron (`Module.module.module.decoder.layers.0.self_attention
.linear_qkv.ColumnParallelLinear.forward.0`) names, with backward records and a second micro-batch;
OUT/bench/rank0 is the inference side under vLLM's names (`Module.model.layers.0.self_attn.qkv_proj
.QKVParallelLinear.forward.0`), where q/k/v and gate/up are merged. Tensors are related as the real
modules are (the merged outputs are the concatenation of the split ones, the weights stacked), then
perturbed; records go missing on either side, some API rows and name collisions are added.
Usage: make_verl_case.py OUT SEED [statistics|tensor|md5] [fsdp|megatron] [LAYERS] (needs torch;
LAYERS makes a long run for timing: that many decoder layers, 64 tokens of 256 (k and v 128, the
MLP 512), q, k and v in order and all three with weights or none, no cut tensors; without it 1 or 2
layers of 3 tokens of 8)."""
import json
import math
import os
import random
import sys
import zlib

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dumper_stats import stats  # noqa: E402

out, seed = sys.argv[1], int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else "statistics"
backend = sys.argv[4] if len(sys.argv) > 4 else "fsdp"
rnd = random.Random(seed)
timing = len(sys.argv) > 5
torch.manual_seed(seed)
# tokens, hidden, k/v width, mlp width
T, H, KV, F = (64, 256, 128, 512) if timing else (3, 8, 4, 6)

TRAIN_PREFIX = {"fsdp": "Module._fsdp_wrapped_module.", "megatron": "Module.module.module."}[backend]
# module path (vLLM's) -> (train path under the backend, train class, infer class)
if backend == "fsdp":
    LAYER_TRAIN = "model.layers.{l}._fsdp_wrapped_module."
    TOP = {"embed": ("model.embed_tokens", "Embedding", "model.embed_tokens", "VocabParallelEmbedding"),
           "norm": ("model.norm", "Qwen2RMSNorm", "model.norm", "RMSNorm"),
           "head": ("lm_head", "Linear", "lm_head", "ParallelLMHead"),
           "model": ("model", "Qwen2Model", "model", "Qwen2Model")}
else:
    LAYER_TRAIN = "decoder.layers.{l}."
    TOP = {"embed": ("embedding.word_embeddings", "VocabParallelEmbedding", "model.embed_tokens",
                     "VocabParallelEmbedding"),
           "norm": ("decoder.final_layernorm", "RMSNorm", "model.norm", "RMSNorm"),
           "head": ("output_layer", "ColumnParallelLinear", "lm_head", "ParallelLMHead"),
           "model": ("", "GPTModel", "model", "Qwen2Model")}


def value(shape, dtype=torch.float32):
    return (torch.randn(shape) * rnd.choice([0.01, 1.0, 30.0])).to(dtype)


def perturb(t):
    kind = rnd.choice(["same", "noise", "noise", "noise", "far", "nan", "zero", "dtype"])
    if rnd.random() < 0.03 and not timing:  # a cut tensor: numpy cannot concatenate it with others
        kind = "shape"
    t = t.clone()
    if kind == "noise":
        t = (t.double() * (1 + torch.randn(t.shape).double() * 1e-4)).to(t.dtype)
    elif kind == "far":
        t = (t.double() * 1.5 + 0.1).to(t.dtype)
    elif kind == "nan" and t.numel():
        t.reshape(-1)[rnd.randrange(t.numel())] = rnd.choice([math.nan, math.inf])
    elif kind == "zero":
        t = torch.zeros_like(t)
    elif kind == "dtype":
        t = t.to(rnd.choice([torch.bfloat16, torch.float16]))
    elif kind == "shape" and t.dim() == 2:
        t = t[:, : max(1, t.shape[1] - 1)].contiguous()
    return t


class Side:
    def __init__(self, name):
        self.root = os.path.join(out, name, "rank0")
        os.makedirs(os.path.join(self.root, "dump_tensor_data"), exist_ok=True)
        self.data = {}

    def leaf(self, row, t):
        if t is None:
            return None
        mx, mn, mean, norm = stats(t)
        entry = {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape), "Max": mx,
                 "Min": mn, "Mean": mean, "Norm": norm, "requires_grad": rnd.random() < 0.3}
        if mode == "tensor":
            entry["data_name"] = row + ".pt"
            torch.save(t, os.path.join(self.root, "dump_tensor_data", row + ".pt"))
        if mode == "md5":
            entry["md5"] = "%08x" % zlib.crc32(t.double().numpy().tobytes())  # equal tensors, equal CRCs
        return entry

    def record(self, key, inputs, outputs, params=None, kwargs=None):
        rec = {"input_args": [self.leaf(f"{key}.input.{i}", t) for i, t in enumerate(inputs)],
               "input_kwargs": {k: self.leaf(f"{key}.input.{k}", t) for k, t in (kwargs or {}).items()},
               "output": [self.leaf(f"{key}.output.{i}", t) for i, t in enumerate(outputs)]}
        if params:
            rec["parameters"] = {k: self.leaf(f"{key}.parameters.{k}", t) for k, t in params.items()}
        self.data[key] = rec

    def backward(self, key, grads):
        self.data[key] = {"input": [self.leaf(f"{key}.input.{i}", t) for i, t in enumerate(grads)],
                          "output": [self.leaf(f"{key}.output.{i}", t) for i, t in enumerate(grads)]}

    def write(self):
        with open(os.path.join(self.root, "dump.json"), "w") as f:
            json.dump({"task": "tensor" if mode == "tensor" else "statistics", "level": "L0",
                       "framework": "pytorch",
                       "dump_data_dir": os.path.join(self.root, "dump_tensor_data") if mode == "tensor" else None,
                       "data": self.data}, f, indent=1)


train, infer = Side("npu"), Side("bench")
api_calls = {"train": {}, "infer": {}}
dropped = {}  # module -> a draw: under 0.06 the train side lacks it, over 0.94 the infer side
weighted = {}  # module -> whether its records carry its weight (in every call, as a dumper's would)


def has_weight(name):
    return weighted.setdefault(name, rnd.random() < 0.7)


def train_key(path, cls, call):
    return f"{TRAIN_PREFIX}{path + '.' if path else ''}{cls}.forward.{call}"


def module(train_path, train_cls, infer_path, infer_cls, ins, outs, params=None, call=0, infer_call=None):
    """One module on both sides; the train side's tensors perturbed, either side may lack it (in every
    call: a record lost in one call only leaves the calls out of step, which msprobe refuses)."""
    drop = dropped.setdefault(train_path + train_cls, rnd.random())
    if drop > 0.06 and train_active:
        train.record(train_key(train_path, train_cls, call), [perturb(t) for t in ins],
                     [perturb(t) for t in outs], {k: perturb(t) for k, t in (params or {}).items()})
    if drop < 0.94 and infer_call is not None:
        infer.record(f"Module.{infer_path}.{infer_cls}.forward.{infer_call}", ins, outs, params)


def api(name, infer_call):
    """An API row (mix level) on both sides that run the call, numbered per side."""
    x = value([T, H])
    for side, s in (("train", train), ("infer", infer)):
        if (side == "train" and not train_active) or (side == "infer" and infer_call is None):
            continue
        n = api_calls[side].get(name, 0)
        api_calls[side][name] = n + 1
        s.record(f"{name}.{n}.forward", [x if side == "infer" else perturb(x)], [x * 2])


def layer(l, call, infer_call):
    tp = LAYER_TRAIN.format(l=l)
    ip = f"model.layers.{l}."
    x = value([T, H])
    norm_w = value([H])
    names = {"fsdp": {"ln": "input_layernorm", "attn": "self_attn", "q": "self_attn.q_proj", "k": "self_attn.k_proj",
                      "v": "self_attn.v_proj", "o": "self_attn.o_proj", "gate": "mlp.gate_proj", "up": "mlp.up_proj",
                      "down": "mlp.down_proj", "mlp": "mlp", "attn_cls": "Qwen2Attention", "lin": "Linear",
                      "layer_cls": "Qwen2DecoderLayer", "mlp_cls": "Qwen2MLP"},
             "megatron": {"ln": "input_layernorm", "attn": "self_attention", "qkv": "self_attention.linear_qkv",
                          "core": "self_attention.core_attention", "o": "self_attention.linear_proj",
                          "fc1": "mlp.linear_fc1", "down": "mlp.linear_fc2", "mlp": "mlp",
                          "attn_cls": "SelfAttention", "lin": "ColumnParallelLinear",
                          "layer_cls": "TransformerLayer", "mlp_cls": "MLP"}}[backend]
    module(tp + names["ln"], "Qwen2RMSNorm" if backend == "fsdp" else "RMSNorm", ip + "input_layernorm", "RMSNorm",
           [x], [x * 0.5], {"weight": norm_w}, call, infer_call)
    ws = {"q": value([H, H]), "k": value([KV, H]), "v": value([KV, H])}
    outs = {k: x @ w.T for k, w in ws.items()}
    qkv_w = torch.cat([ws["q"], ws["k"], ws["v"]], 0)
    qkv_out = torch.cat([outs["q"], outs["k"], outs["v"]], 1)
    if infer_call is not None and rnd.random() < 0.94:
        infer.record(f"Module.{ip}self_attn.qkv_proj.QKVParallelLinear.forward.{infer_call}", [x], [qkv_out],
                     {"weight": qkv_w} if has_weight(f"{l}.qkv") else None)
    if backend == "fsdp":
        # q, k and v now and then recorded in another order (not in a long timing run)
        shuffled = rnd.random() < 0.2 and not timing
        for k in rnd.sample("qkv", 3) if shuffled else "qkv":
            if rnd.random() > 0.05 and train_active:
                train.record(train_key(tp + names[k], "Linear", call), [perturb(x)], [perturb(outs[k])],
                             {"weight": perturb(ws[k])} if has_weight(f"{l}.{'qkv' if timing else k}")
                             else None)
    else:
        module(tp + names["qkv"], "ColumnParallelLinear", ip + "self_attn.qkv_proj", "QKVParallelLinear",
               [x], [qkv_out], {"weight": qkv_w}, call, None)
        module(tp + names["core"], "DotProductAttention", ip + "self_attn.attn", "Attention",
               [outs["q"]], [outs["q"] * 0.1], None, call, infer_call)
    if rnd.random() < 0.1:  # API rows meet by call number alone: out of step, msprobe refuses them
        api("Torch.matmul", infer_call)
    o_w = value([H, H])
    module(tp + names["o"], "RowParallelLinear" if backend == "megatron" else "Linear", ip + "self_attn.o_proj",
           "RowParallelLinear", [outs["q"]], [outs["q"] @ o_w.T], {"weight": o_w}, call, infer_call)
    module(tp + names["attn"], names["attn_cls"], ip + "self_attn", "Qwen2Attention", [x], [x * 3], None, call,
           infer_call)
    gate_w, up_w = value([F, H]), value([F, H])
    gate, up = x @ gate_w.T, x @ up_w.T
    gate_up = torch.cat([gate, up], 1)
    if backend == "fsdp":
        if infer_call is not None and rnd.random() < 0.94:
            infer.record(f"Module.{ip}mlp.gate_up_proj.MergedColumnParallelLinear.forward.{infer_call}", [x],
                         [gate_up], {"weight": torch.cat([gate_w, up_w], 0)})
        for k, w, o in (("gate", gate_w, gate), ("up", up_w, up)):
            if rnd.random() > 0.05 and train_active:
                train.record(train_key(tp + names[k], "Linear", call), [perturb(x)], [perturb(o)],
                             {"weight": perturb(w)})
    else:
        # vLLM may run the merged projection as two modules (a shared expert beside the MLP): both meet fc1
        halves = rnd.random() < 0.4
        if infer_call is not None:
            if halves:
                infer.record(f"Module.{ip}mlp.gate_up_proj.MergedColumnParallelLinear.forward.{infer_call}",
                             [x], [gate], {"weight": gate_w})
                infer.record(f"Module.{ip}shared_expert.gate_up_proj.MergedColumnParallelLinear.forward."
                             f"{infer_call}", [x], [up], {"weight": up_w})
            elif rnd.random() < 0.94:
                infer.record(f"Module.{ip}mlp.gate_up_proj.MergedColumnParallelLinear.forward.{infer_call}",
                             [x], [gate_up], {"weight": torch.cat([gate_w, up_w], 0)})
        if rnd.random() < 0.95 and train_active:
            train.record(train_key(tp + names["fc1"], "ColumnParallelLinear", call), [perturb(x)],
                         [perturb(gate_up)], {"weight": perturb(torch.cat([gate_w, up_w], 0))})
    down_w = value([H, F])
    module(tp + names["down"], "RowParallelLinear" if backend == "megatron" else "Linear", ip + "mlp.down_proj",
           "RowParallelLinear", [gate], [gate @ down_w.T], {"weight": down_w}, call, infer_call)
    module(tp + names["mlp"], names["mlp_cls"], ip + "mlp", "Qwen2MLP", [x], [x], None, call, infer_call)
    if backend == "fsdp":
        train_layer = f"model.layers.{l}._fsdp_wrapped_module"
    else:
        train_layer = f"decoder.layers.{l}"
    module(train_layer, names["layer_cls"], f"model.layers.{l}", "Qwen2DecoderLayer", [x], [x + 1], None, call,
           infer_call)


def train_backward(call):
    """Backward records: those before the model's own backward are read, the rest skipped."""
    keys = [(TOP["head"][0], TOP["head"][1]), (TOP["norm"][0], TOP["norm"][1])]
    keys.insert(rnd.randrange(len(keys) + 1), (TOP["model"][0], TOP["model"][1]))
    keys.append((TOP["embed"][0], TOP["embed"][1]))
    for path, cls in keys:
        if rnd.random() < 0.8:
            train.backward(f"{TRAIN_PREFIX}{path + '.' if path else ''}{cls}.backward.{call}", [value([T, H])])


layers = rnd.randint(1, 2)
if timing:
    layers = int(sys.argv[5])
infer_calls = rnd.randint(1, 2)
micro_batches = rnd.randint(1, 2)
for mb in range(max(micro_batches, infer_calls)):
    infer_call = mb if mb < infer_calls else None
    train_active = mb < micro_batches  # else the infer side's later decode step alone
    ids = value([T, H])
    embed_w = value([10, H])
    module(TOP["embed"][0], TOP["embed"][1], TOP["embed"][2], TOP["embed"][3], [ids], [ids * 2],
           {"weight": embed_w} if has_weight("embed") else None, mb, infer_call)
    for l in range(layers):
        layer(l, mb, infer_call)
    module(TOP["norm"][0], TOP["norm"][1], TOP["norm"][2], TOP["norm"][3], [ids], [ids], None, mb, infer_call)
    module(TOP["head"][0], TOP["head"][1], TOP["head"][2], TOP["head"][3], [ids], [value([T, 10])], None, mb,
           infer_call)
    module(TOP["model"][0], TOP["model"][1], TOP["model"][2], TOP["model"][3], [ids], [ids], None, mb,
           infer_call)
    if mb < micro_batches:
        train_backward(mb)
train.write()
infer.write()
