"""ONNX models for tests/cli/test_extract_onnx.sh, built with the onnx package, and the checks of
an exported sub-model against onnx's own extractor and onnxruntime.

  onnx_submodel.py build MODEL          write the test model (shapes inferred, so value_info is set)
  onnx_submodel.py strip MODEL OUT      the model without value_info (types of inner tensors unknown)
  onnx_submodel.py build-if MODEL       a model whose If branches read outer tensors and an
                                        initializer only they use
  onnx_submodel.py check MODEL SUB IN.. -- OUT..
      SUB passes onnx.checker, has the nodes onnx.utils.extract_model gives for inputs IN and
      outputs OUT, keeps every node, initializer and model field unchanged, and onnxruntime run on
      the full model's IN tensors gives the full model's OUT tensors.
  onnx_submodel.py check-if MODEL SUB IN.. -- OUT..
      the same without extract_model, which does not follow If branches' reads
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def build(path):
    rng = np.random.default_rng(7)
    def init(name, *shape):
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)
    nodes = [
        helper.make_node("Conv", ["x", "W1", "B1"], ["c1"], name="conv1", pads=[1, 1, 1, 1],
                         doc_string="the first conv"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Sigmoid", ["c1"], ["aux"], name="side"),
        helper.make_node("Conv", ["r1", "W2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Constant", [], ["k"], name="kconst",
                         value=numpy_helper.from_array(np.full((1, 4, 1, 1), 0.5, np.float32))),
        helper.make_node("Mul", ["r1", "k"], ["m1"], name="mul1"),
        helper.make_node("Add", ["c2", "m1"], ["a1"], name="add1"),
        helper.make_node("Relu", ["a1"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["p"], name="pool"),
        helper.make_node("Flatten", ["p"], ["f"], name="flat"),
        helper.make_node("Gemm", ["f", "Wfc", "Bfc"], ["y"], name="fc", transB=1),
        helper.make_node("Softmax", ["y"], ["prob"]),  # no name: known by its output
    ]
    graph = helper.make_graph(
        nodes, "net",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 6])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 5]),
         helper.make_tensor_value_info("aux", TensorProto.FLOAT, [1, 4, 6, 6])],
        [init("W1", 4, 3, 3, 3), init("B1", 4), init("W2", 4, 4, 3, 3), init("Wfc", 5, 4),
         init("Bfc", 5), init("unused", 2)],
        doc_string="a test net")
    model = helper.make_model(graph, producer_name="dumpcmp-test", producer_version="1",
                              opset_imports=[helper.make_opsetid("", 13)])
    helper.set_model_props(model, {"purpose": "extract test"})
    model = onnx.shape_inference.infer_shapes(model)
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, path)


def build_if(path):
    f = TensorProto.FLOAT
    then_branch = helper.make_graph(
        [helper.make_node("Add", ["b", "S"], ["t"], name="then_add")], "then", [],
        [helper.make_tensor_value_info("t", f, [1, 4])])
    else_branch = helper.make_graph(
        [helper.make_node("Identity", ["a"], ["e"], name="else_id")], "else", [],
        [helper.make_tensor_value_info("e", f, [1, 4])])
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="n1"),
        helper.make_node("Neg", ["a"], ["b"], name="n2"),
        helper.make_node("If", ["cond"], ["g"], name="gate", then_branch=then_branch,
                         else_branch=else_branch),
        helper.make_node("Relu", ["g"], ["y"], name="n3"),
    ]
    graph = helper.make_graph(
        nodes, "ifnet", [helper.make_tensor_value_info("x", f, [1, 4])],
        [helper.make_tensor_value_info("y", f, [1, 4])],
        [numpy_helper.from_array(np.array(True), "cond"),
         numpy_helper.from_array(np.arange(4, dtype=np.float32).reshape(1, 4), "S")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model = onnx.shape_inference.infer_shapes(model)
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, path)


def with_outputs(model, names):
    """The model with extra graph outputs (typed from value_info), to read intermediate tensors."""
    extra = onnx.ModelProto()
    extra.CopyFrom(model)
    known = {v.name: v for v in list(model.graph.value_info) + list(model.graph.input)
             + list(model.graph.output)}
    have = {o.name for o in extra.graph.output}
    for name in names:
        if name not in have:
            extra.graph.output.append(known[name])
    return extra


def check(model_path, sub_path, inputs, outputs, extractor=True):
    import tempfile
    import onnxruntime as ort
    full = onnx.load(model_path)
    sub = onnx.load(sub_path)
    onnx.checker.check_model(sub, full_check=True)

    got = sorted(n.name or n.output[0] for n in sub.graph.node)
    if extractor:
        with tempfile.TemporaryDirectory() as tmp:
            ref_path = tmp + "/ref.onnx"
            onnx.utils.extract_model(model_path, ref_path, inputs, outputs)
            ref = onnx.load(ref_path)
        want = sorted(n.name or n.output[0] for n in ref.graph.node)
        assert got == want, f"nodes {got} != extract_model's {want}"
        assert sorted(i.name for i in sub.graph.initializer) == sorted(
            i.name for i in ref.graph.initializer), "initializers"
    assert [i.name for i in sub.graph.input] == inputs, [i.name for i in sub.graph.input]
    assert [o.name for o in sub.graph.output] == outputs, [o.name for o in sub.graph.output]

    # Everything copied is copied byte for byte.
    by_name = {n.name or n.output[0]: n.SerializeToString() for n in full.graph.node}
    for n in sub.graph.node:
        assert n.SerializeToString() == by_name[n.name or n.output[0]], f"node {n.name} changed"
    inits = {i.name: i.SerializeToString() for i in full.graph.initializer}
    for i in sub.graph.initializer:
        assert i.SerializeToString() == inits[i.name], f"initializer {i.name} changed"
    for field in ("ir_version", "producer_name", "producer_version", "opset_import",
                  "metadata_props"):
        assert getattr(sub, field) == getattr(full, field), field
    assert sub.graph.name == full.graph.name and sub.graph.doc_string == full.graph.doc_string

    # onnxruntime: the sub-model on the full model's intermediate tensors.
    rng = np.random.default_rng(3)
    feed = {i.name: rng.standard_normal([d.dim_value for d in i.type.tensor_type.shape.dim])
            .astype(np.float32) for i in full.graph.input}
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    full_run = ort.InferenceSession(with_outputs(full, inputs + outputs).SerializeToString(), so,
                                    providers=["CPUExecutionProvider"])
    names = [o.name for o in full_run.get_outputs()]
    values = dict(zip(names, full_run.run(None, feed)))
    values.update(feed)
    sub_run = ort.InferenceSession(sub.SerializeToString(), so,
                                   providers=["CPUExecutionProvider"])
    result = sub_run.run(outputs, {name: values[name] for name in inputs})
    for name, value in zip(outputs, result):
        np.testing.assert_allclose(value, values[name], rtol=1e-6, atol=1e-6, err_msg=name)
    print("onnx check ok:", sub_path, got)


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    elif sys.argv[1] == "build-if":
        build_if(sys.argv[2])
    elif sys.argv[1] == "strip":
        model = onnx.load(sys.argv[2])
        del model.graph.value_info[:]
        onnx.save(model, sys.argv[3])
    else:
        rest = sys.argv[4:]
        cut = rest.index("--")
        check(sys.argv[2], sys.argv[3], rest[:cut], rest[cut + 1:], sys.argv[1] == "check")
