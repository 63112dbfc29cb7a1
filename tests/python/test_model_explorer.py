"""dumpcmp compare --model-explorer: the files read strictly as Model Explorer's own types (its
dataclasses, through dacite), their values are the result rows', and the real Model Explorer,
started on loopback and shown in headless Chromium, colours the first divergent op dark red
(the screenshot is kept in the build's test-artifacts folder)."""
import csv
import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

model_explorer = pytest.importorskip("model_explorer")
dacite = pytest.importorskip("dacite")
from model_explorer import graph_builder, node_data_builder  # noqa: E402

ROOT = os.environ["DUMPCMP_ROOT"]
CLI = os.environ["DUMPCMP_CLI"]
LAYOUTS = os.path.join(ROOT, "tests", "data", "msaccucmp_fusion", "layouts")
STRICT = dacite.Config(strict=True)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("model_explorer")
    # The limit fails the Data op x (cosine 0.999935) and passes the ops after it.
    subprocess.run([CLI, "compare", "-m", "left", "-g", "right", "-f", "model.json",
                    "-out", str(out / "result"), "--model-explorer", str(out / "view"),
                    "--threshold", "CosineSimilarity=0.99995", "--device", "cpu", "--quiet"],
                   cwd=LAYOUTS, check=True)
    return out


def load(run, name):
    with open(run / "view" / name) as f:
        return json.load(f)


def test_graph_is_a_model_explorer_graph_collection(run):
    collection = dacite.from_dict(graph_builder.GraphCollection, load(run, "graph.json"), STRICT)
    (graph,) = collection.graphs
    with open(os.path.join(LAYOUTS, "model.json")) as f:
        ops = [op["name"] for op in json.load(f)["graph"][0]["op"]]
    assert [node.id for node in graph.nodes] == ops
    ids = set(ops)
    for node in graph.nodes:
        assert all(edge.sourceNodeId in ids for edge in node.incomingEdges)
    conv = next(node for node in graph.nodes if node.id == "conv")
    assert conv.label == "Conv2D"
    assert [(e.sourceNodeId, e.targetNodeInputId) for e in conv.incomingEdges] == [
        ("x", "0"), ("conv_w", "1")]


def test_node_data_are_the_rows_values(run):
    with open(next((run / "result").glob("result_*.csv")), newline="") as f:
        rows = list(csv.DictReader(f))
    lowest = {}
    for row in rows:
        if ":output:" in row["TensorIndex"] and row["CosineSimilarity"] not in ("NaN", "nan"):
            op = row["TensorIndex"].split(":")[0]
            lowest[op] = min(lowest.get(op, 2.0), float(row["CosineSimilarity"]))
    data = {}
    for name in ("verdict.json", "cosine.json", "max_relative_error.json"):
        (graph_id, graph_data), = load(run, name).items()
        assert graph_id == "model"
        data[name] = dacite.from_dict(node_data_builder.GraphNodeData, graph_data, STRICT)
    cosine = {op: r.value for op, r in data["cosine.json"].results.items()}
    assert cosine.keys() == lowest.keys()
    for op, value in cosine.items():
        assert abs(value - lowest[op]) <= 5e-7, op
    verdict = data["verdict.json"].results
    assert verdict["x"].value == 0 and verdict["x"].bgColor == "#b71c1c"
    assert all(r.value == 1 for op, r in verdict.items() if op != "x")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_model_explorer_colours_the_first_divergent_op(run):
    if shutil.which("chromium") is None:
        pytest.skip("no chromium (scripts/install-deps.sh installs it)")
    from headless_chromium import Chromium, count_colour, keep_artifact, png_pixels

    server = subprocess.Popen(
        [sys.executable, "-m", "model_explorer", str(run / "view" / "graph.json"),
         "--node_data_paths=" + str(run / "view" / "verdict.json"), "--no_open_in_browser",
         "--host=127.0.0.1", f"--port={free_port()}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    browser = None
    try:
        url = None
        deadline = time.time() + 60
        while url is None and time.time() < deadline:
            line = server.stdout.readline()
            if not line:
                break
            if line.startswith("http://127.0.0.1"):
                url = line.strip()
        assert url, "Model Explorer did not start"
        browser = Chromium()
        browser.open_and_wait(url, lambda text: "verdict.json" in text and "nodes" in text and
                              "Processing graph" not in text, seconds=240)
        time.sleep(3)  # the graph is drawn on a canvas after the panels
        png = browser.screenshot()
    finally:
        if browser:
            browser.close()
        server.kill()
        server.wait()
    keep_artifact("model_explorer_verdict.png", png)
    graph_area = png_pixels(png)[:, :1000]  # the canvas, left of the side panel's table
    assert count_colour(graph_area, "#b71c1c") > 2000, "the first divergent op is not dark red"
    assert count_colour(graph_area, "#66bb6a") > 4 * 2000, "the passing ops are not green"


def test_original_onnx_model_coloured_through_original_names(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    # The layers the offline model's ops name as their originals (tests/data/.../layouts).
    nodes = [helper.make_node("Conv", ["x", "conv_w"], ["c"], name="conv"),
             helper.make_node("Relu", ["c"], ["a"], name="act"),
             helper.make_node("Identity", ["a"], ["d"], name="conv3d"),
             helper.make_node("MatMul", ["d", "d"], ["m"], name="bmm"),
             helper.make_node("Cast", ["m"], ["y"], name="qout", to=TensorProto.INT8)]
    graph = helper.make_graph(
        nodes, "original", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, None)],
        [helper.make_tensor("conv_w", TensorProto.FLOAT, [4, 3, 3, 3], [0.0] * 108)])
    model = tmp_path / "original.onnx"
    onnx.save(helper.make_model(graph), str(model))
    subprocess.run([CLI, "compare", "-m", "left", "-g", "right", "-f", "model.json",
                    "-out", str(tmp_path / "result"), "--model-explorer", str(tmp_path / "view"),
                    "--original-model", str(model), "--device", "cpu", "--quiet"],
                   cwd=LAYOUTS, check=True)
    with open(tmp_path / "view" / "graph.json") as f:
        collection = dacite.from_dict(graph_builder.GraphCollection, json.load(f), STRICT)
    assert collection.label == "original.onnx"
    (graph,) = collection.graphs
    assert [n.id for n in graph.nodes] == ["conv", "act", "conv3d", "bmm", "qout"]
    act = graph.nodes[1]
    assert [(e.sourceNodeId, e.sourceNodeOutputId, e.targetNodeInputId)
            for e in act.incomingEdges] == [("conv", "0", "0")]
    with open(tmp_path / "view" / "verdict.json") as f:
        (graph_id, data), = json.load(f).items()
    verdict = dacite.from_dict(node_data_builder.GraphNodeData, data, STRICT).results
    # qout's row is not compared; the others pass the default limits.
    assert {op: r.value for op, r in verdict.items()} == {"conv": 1, "act": 1, "conv3d": 1, "bmm": 1}
