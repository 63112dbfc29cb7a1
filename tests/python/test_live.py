"""dumpcmp.live: a PyTorch run compared, as it runs, with an NPU run's msprobe dump. The bench
model (tests/data/msprobe_dump/live/live_model.py, small integers, so the same values on any torch
and CPU) runs under the hooks; the result must be the file msprobe 26.2.0's compare wrote for the
NPU dump against msprobe's own dump of the same run (expected_<task>.csv), byte for byte, on the
cpu backend, on thrust-omp (the GPU's code path) and on CUDA where a GPU is present. Without torch
these tests skip (the engine under them is tests/unit/test_probe_live.cpp's, which always runs)."""
import os
import shutil
import sys

import pytest

from dumpcmp import resident

torch = pytest.importorskip("torch", reason="no torch in this Python: the live compare hooks a "
                                            "PyTorch run")
if not os.path.exists(os.path.join(os.path.dirname(resident.__file__), "libdumpcmp_resident.so")):
    pytest.skip("built without the device backends: no libdumpcmp_resident.so",
                allow_module_level=True)

from dumpcmp.live import LiveCompare  # noqa: E402

CASE = os.path.join(os.environ["DUMPCMP_ROOT"], "tests", "data", "msprobe_dump", "live")
sys.path.insert(0, CASE)
from live_model import (init_one_process, make_input, make_model, make_sharded_input,  # noqa: E402
                        make_sharded_model, make_train_input, make_train_model, run, train)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def live_run(npu, out, device="cpu", backend="cpu"):
    model = make_model(0).to(device)
    with LiveCompare(npu, out=out, backend=backend).watch(model) as live:
        run(model, make_input().to(device))
    return live


@pytest.mark.parametrize("task", ["tensor", "statistics", "md5"])
@pytest.mark.parametrize("backend", ["cpu", "thrust-omp"])
def test_writes_msprobes_file(tmp_path, task, backend):
    live = live_run(os.path.join(CASE, task, "npu", "dump.json"), tmp_path, backend=backend)
    assert [os.path.basename(f)[:15] for f in live.files] == ["compare_result_"]
    assert read(live.files[0]) == read(os.path.join(CASE, "expected_%s.csv" % task))
    assert live.warnings == []


def test_cuda_tensors_compared_on_their_device(tmp_path):
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    live = live_run(os.path.join(CASE, "tensor", "npu"), tmp_path, device="cuda")
    assert read(live.files[0]) == read(os.path.join(CASE, "expected_tensor.csv"))


@pytest.mark.parametrize("task", ["tensor", "statistics", "md5"])
def test_bench_dump_is_msprobes_records(tmp_path, task):
    import json
    live = live_run(os.path.join(CASE, task, "npu", "dump.json"), tmp_path)
    with open(os.path.join(CASE, task, "bench", "dump.json")) as f:
        msprobe = json.load(f)
    mine = live.bench_dump()
    assert mine["task"] == msprobe["task"]
    assert list(mine["data"]) == list(msprobe["data"])  # msprobe's order of records
    assert json.loads(json.dumps(mine["data"])) == msprobe["data"]


def train_run(task, out, device="cpu", backend="cpu", data_mode="all"):
    model = make_train_model(0).to(device)
    x = make_train_input().detach().to(device).requires_grad_()
    with LiveCompare(os.path.join(CASE, "train", task, "npu"), out=out, backend=backend,
                     data_mode=data_mode).watch(model) as live:
        train(model, x)
    return live


@pytest.mark.parametrize("task", ["tensor", "statistics"])
@pytest.mark.parametrize("device, backend", [("cpu", "cpu"), ("cpu", "thrust-omp"),
                                             ("cuda", "cpu")])
def test_backward_rows_are_msprobes(tmp_path, task, device, backend):
    """A step's forward and backward: each module's backward record (its outputs' gradients as
    "input", its inputs' as "output") and its parameters' gradients, compared as autograd makes
    them; msprobe's file for the NPU run's dump against msprobe's dump of the bench step."""
    import json
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    live = train_run(task, tmp_path, device, backend)
    assert read(live.files[0]) == read(os.path.join(CASE, "expected_train_%s.csv" % task))
    assert live.warnings == []
    with open(os.path.join(CASE, "train", task, "bench", "dump.json")) as f:
        msprobe = json.load(f)["data"]
    mine = json.loads(json.dumps(live.bench_dump()["data"]))
    assert list(mine) == list(msprobe)
    assert any(".backward." in name for name in mine)
    assert any(".parameters_grad." in name for name in mine)
    if device == "cpu":  # msprobe's dump ran on the CPU
        assert mine == msprobe


def test_forward_data_mode_leaves_the_backward(tmp_path):
    import json
    live = train_run("tensor", tmp_path, data_mode="forward")
    with open(os.path.join(CASE, "train", "tensor", "bench", "dump.json")) as f:
        msprobe = json.load(f)["data"]
    forward = {k: v for k, v in msprobe.items() if ".forward." in k}
    assert json.loads(json.dumps(live.bench_dump()["data"])) == forward
    with pytest.raises(ValueError, match="data_mode"):
        LiveCompare(os.path.join(CASE, "train", "tensor", "npu"), out=tmp_path, data_mode="input")


def test_dtensors_recorded_and_compared_as_msprobe_does(tmp_path):
    """A DTensor parameter and output (FSDP2, tensor parallelism): msprobe's type, local shape
    and statistics, mesh and placements; its local shard compared."""
    import json
    dist = pytest.importorskip("torch.distributed")
    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("torch.distributed without gloo")
    init_one_process()
    try:
        model = make_sharded_model(0)
        with LiveCompare(os.path.join(CASE, "sharded", "npu"), out=tmp_path).watch(model) as live:
            run(model, make_sharded_input())
    finally:
        dist.destroy_process_group()
    assert read(live.files[0]) == read(os.path.join(CASE, "expected_sharded.csv"))
    with open(os.path.join(CASE, "sharded", "bench", "dump.json")) as f:
        msprobe = json.load(f)["data"]
    assert json.loads(json.dumps(live.bench_dump()["data"])) == msprobe


def test_unreadable_npu_file_fails_its_row_only(tmp_path):
    npu = tmp_path / "npu"
    shutil.copytree(os.path.join(CASE, "tensor", "npu"), npu)
    victim = "Module.gate.Gate.forward.0.output.0.pt"
    with open(npu / "dump_tensor_data" / victim, "r+b") as f:
        f.truncate(10)
    live = live_run(npu / "dump.json", tmp_path / "out")
    assert any(victim in w for w in live.warnings)
    assert live.files[-1].endswith(".log")
    rows = [line for line in read(live.files[0]).decode().splitlines()
            if line.startswith("Module.gate.Gate.forward.0.output.0,")]
    assert len(rows) == 1 and ",unsupported,unsupported," in rows[0]


def test_missing_dump_is_named(tmp_path):
    with pytest.raises(resident.DeviceError, match="nowhere"):
        LiveCompare(tmp_path / "nowhere" / "dump.json", out=tmp_path)


def test_failed_run_writes_nothing(tmp_path):
    model = make_model(0)
    with pytest.raises(RuntimeError):
        with LiveCompare(os.path.join(CASE, "tensor", "npu"), out=tmp_path / "out").watch(model):
            run(model, make_input())
            raise RuntimeError("the step failed")
    assert not (tmp_path / "out").exists()
    run(model, make_input())  # the hooks are gone
