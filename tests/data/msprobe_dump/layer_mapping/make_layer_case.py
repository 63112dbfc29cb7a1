"""A MindSpore run and a PyTorch one for -lm (layer mapping): python3 make_layer_case.py OUT_DIR
writes OUT_DIR/{ms,pt}/{dump,stack,construct}.json. The MindSpore run numbers its transformer
layers from 4 (a pipeline stage), calls APIs through framework frames (stack scopes), has backward
ops and parameter gradients, an op under a renamed multi-level child, and ops the other run lacks.
layers.yaml beside this script renames children for it."""
import json
import os
import sys

out = sys.argv[1]


def tensor(framework, dtype, shape, value):
    kind = "mindspore.Tensor" if framework == "ms" else "torch.Tensor"
    name = {"ms": {"f32": "Float32", "i64": "Int64"}, "pt": {"f32": "torch.float32", "i64": "torch.int64"}}[framework][dtype]
    return {"type": kind, "dtype": name, "shape": shape, "Max": value, "Min": -value, "Mean": value / 3,
            "Norm": value * 2, "requires_grad": False}


def frames(framework, func, user_func):
    pkg = "mindspore" if framework == "ms" else "torch"
    return [
        f"File /x/site-packages/msprobe/{pkg}/hook.py, line 10, in wrapped, \n out = f()",
        f"File /x/site-packages/msprobe/{pkg}/Template.py, line 11, in api_template, \n x",
        f"File /x/site-packages/{pkg}/nn/functional.py, line 20, in {func}, \n return op(x)",
        f"File /x/site-packages/{pkg}/nn/layer.py, line 30, in inner_call, \n return y",
        f"File /work/model.py, line 40, in {user_func}, \n h = self.act(h)",
        f"File /x/site-packages/{pkg}/nn/cell.py, line 50, in " + ("construct" if framework == "ms" else "forward") + ", \n z",
    ]


def side(framework, first_layer, top, names):
    cls = "Cell" if framework == "ms" else "Module"
    data, stack, construct = {}, {}, {}
    root = f"{cls}.{top}.encoder"

    def add(key, parent, inputs, outputs, st=None, params=None):
        entry = {"input_args": inputs, "input_kwargs": {}, "output": outputs}
        if params:
            entry["parameters"] = params
        data[key] = entry
        construct[key] = parent
        if st is not None:
            stack[key] = st

    f = lambda v: tensor(framework, "f32", [2, 4], v)
    enc = f"{cls}.{top}.encoder.ParallelTransformer.forward.0"
    add(enc, "", [f(1.0)], [f(2.0)])
    for k in range(2):
        n = first_layer + k
        layer = f"{root}.layers.{n}.TransformerLayer.forward.0"
        add(layer, enc, [f(1.0 + k)], [f(2.0 + k)])
        mlp = f"{root}.layers.{n}.{names['mlp']}.MLP.forward.0"
        add(mlp, layer, [f(3.0 + k)], [f(4.0 + k)], params={"weight": f(0.5)})
        gelu = f"{names['gelu_api']}.{k}.forward"
        add(gelu, mlp, [f(5.0 + k)], [f(6.0 + k)], st=frames(framework, names["gelu_func"], "mlp_forward"))
        data[f"{names['gelu_api']}.{k}.backward"] = {"input": [f(7.0 + k)], "output": [f(8.0 + k)]}
        data[f"{root}.layers.{n}.{names['mlp']}.MLP.parameters_grad"] = {"weight": [f(0.25 + k)]}
        construct[f"{names['gelu_api']}.{k}.backward"] = ""
    deep = f"{root}.layers.{first_layer}.{names['deep']}.Dense.forward.0"
    add(deep, f"{root}.layers.{first_layer}.TransformerLayer.forward.0", [f(9.0)], [f(10.0)])
    only = f"{names['only']}.0.forward"
    add(only, enc, [tensor(framework, "i64", [3], 3)], [f(11.0)], st=frames(framework, "only_func", "run"))
    d = os.path.join(out, framework)
    os.makedirs(d, exist_ok=True)
    fw = "mindspore" if framework == "ms" else "pytorch"
    for name, obj in (("dump", {"task": "statistics", "level": "mix", "framework": fw, "dump_data_dir": None, "data": data}),
                      ("stack", stack), ("construct", construct)):
        with open(os.path.join(d, name + ".json"), "w") as fh:
            json.dump(obj, fh, indent=1)


side("ms", 4, "network_with_loss", {"mlp": "mlp", "gelu_api": "Mint.gelu", "gelu_func": "gelu",
                                    "deep": "attn.core.proj", "only": "Mint.topk"})
side("pt", 0, "module", {"mlp": "feed_forward", "gelu_api": "Functional.gelu", "gelu_func": "gelu",
                         "deep": "self_attention.dense", "only": "Torch.sort"})
