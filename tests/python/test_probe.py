"""dumpcmp.compare_probe: msprobe's compare of training-run dumps from Python, the same rows as the
files msprobe 26.2.0 wrote (tests/data/msprobe_dump), as a DataFrame and, with out=, as files."""
import csv
import filecmp
import glob
import os
import subprocess
import sys

import pytest

import dumpcmp

ROOT = os.environ["DUMPCMP_ROOT"]
DATA = os.path.join(ROOT, "tests", "data", "msprobe_dump")
CROSS = os.path.join(DATA, "tensor_cases", "tensor_cross")


@pytest.fixture(autouse=True)
def blas_order(monkeypatch):
    # EucDist's last digits follow the OpenBLAS order msprobe had (docs/compatibility.md).
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    monkeypatch.setenv("DUMPCMP_BLAS_DOT", "skylakex")


def expected_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def same_cell(value, text):
    if isinstance(value, str):
        return value == text
    return float(text) == pytest.approx(float(value), rel=0, abs=0, nan_ok=True)


def test_frame_holds_msprobes_rows(tmp_path):
    frame = dumpcmp.compare_probe(os.path.join(CROSS, "npu"), os.path.join(CROSS, "bench"),
                                  api_mapping=True)
    header, rows = expected_rows(os.path.join(DATA, "cross_framework", "tensor_am.csv"))
    assert list(frame.columns) == ["Pair"] + header
    assert (frame["Pair"] == "rank0").all()
    assert len(frame) == len(rows)
    for i, row in enumerate(rows):
        for column, text in zip(header, row):
            assert same_cell(frame.at[i, column], text), (i, column, frame.at[i, column], text)
    assert frame["EucDist"].dtype == object  # "unsupported" cells keep the column text
    assert frame.attrs["files"] == []


def test_out_writes_msprobes_file(tmp_path):
    frame = dumpcmp.compare_probe(os.path.join(CROSS, "npu"), os.path.join(CROSS, "bench"),
                                  out=tmp_path, cell_mapping=os.path.join(DATA, "cross_framework",
                                                                          "cells_tensor.yaml"))
    files = frame.attrs["files"]
    assert len(files) == 1 and os.path.dirname(files[0]) == str(tmp_path)
    assert os.path.basename(files[0]).startswith("compare_result_rank0_")
    assert filecmp.cmp(files[0], os.path.join(DATA, "cross_framework", "tensor_cm_cells.csv"),
                       shallow=False)
    assert not glob.glob(os.path.join(tmp_path, ".dumpcmp.lock"))


def test_layer_mapping_writes_its_data_mapping(tmp_path):
    case = tmp_path / "case"
    layer = os.path.join(DATA, "layer_mapping")
    subprocess.run([sys.executable, os.path.join(layer, "make_layer_case.py"), str(case)], check=True)
    frame = dumpcmp.compare_probe(case / "ms" / "dump.json", case / "pt" / "dump.json",
                                  out=tmp_path / "out",
                                  layer_mapping=os.path.join(layer, "layers.yaml"))
    assert filecmp.cmp(frame.attrs["files"][0], os.path.join(layer, "expected.csv"), shallow=False)
    written = glob.glob(str(tmp_path / "out" / "data_mapping_*.yaml"))
    assert len(written) == 1
    assert filecmp.cmp(written[0], os.path.join(layer, "expected_data_mapping.yaml"), shallow=False)


def test_xlsx_in_place_of_the_csv(tmp_path):
    frame = dumpcmp.compare_probe(os.path.join(CROSS, "npu"), os.path.join(CROSS, "bench"),
                                  out=tmp_path, xlsx=True)
    files = frame.attrs["files"]
    assert len(files) == 1 and files[0].endswith(".xlsx")
    assert not glob.glob(str(tmp_path / "*.csv"))
    cells = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "cli", "xlsx_cells.py"),
                            files[0]], check=True, capture_output=True, text=True).stdout
    assert "Sheet1 A2 s Mint.matmul.0.forward.input.0" in cells.splitlines()


def test_pandas_2_cells(tmp_path):
    case = os.path.join(DATA, "tensor_cases", "tensor")
    frame = dumpcmp.compare_probe(os.path.join(case, "npu"), os.path.join(case, "bench"),
                                  out=tmp_path, pandas=2)
    assert filecmp.cmp(frame.attrs["files"][0], os.path.join(DATA, "pandas2", "tensor_proc0.csv"),
                       shallow=False)
    with pytest.raises(ValueError):
        dumpcmp.compare_probe(case, case, pandas=1)


def test_device_gives_the_same_cells(tmp_path):
    case = os.path.join(DATA, "tensor_cases", "tensor_ranks")
    cpu = dumpcmp.compare_probe(os.path.join(case, "npu"), os.path.join(case, "bench"), threads=1)
    try:
        omp = dumpcmp.compare_probe(os.path.join(case, "npu"), os.path.join(case, "bench"),
                                    device="thrust-omp", threads=2)
    except dumpcmp.Error as e:
        pytest.skip(f"thrust-omp not built: {e}")
    assert cpu.equals(omp)
    page = tmp_path / "report.html"
    dumpcmp.compare_probe(os.path.join(case, "npu"), os.path.join(case, "bench"), html=page)
    assert "<h2>rank1: errors and warnings</h2>" in page.read_text()
    with pytest.raises(ValueError, match="unknown device"):
        dumpcmp.compare_probe(case, case, device="tpu")


def test_fuzzy_match(tmp_path, monkeypatch):
    # msprobe wrote fuzzy/ on a CPU whose OpenBLAS sums with its Haswell kernel.
    monkeypatch.setenv("DUMPCMP_BLAS_DOT", "haswell")
    case = os.path.join(DATA, "tensor_cases", "tensor_ranks")
    frame = dumpcmp.compare_probe(os.path.join(case, "npu"), os.path.join(case, "bench"),
                                  out=tmp_path, fuzzy_match=True)
    files = sorted(frame.attrs["files"])
    assert len(files) == 2
    for rank, written in zip(("rank0", "rank1"), files):
        assert filecmp.cmp(written, os.path.join(DATA, "fuzzy", f"tensor_ranks_{rank}.csv"),
                           shallow=False)


def test_steps_compare_every_step(tmp_path):
    import shutil
    case = os.path.join(DATA, "tensor_cases", "tensor_ranks")
    for side in ("npu", "bench"):
        for step in ("step0", "step2"):
            shutil.copytree(os.path.join(case, side), tmp_path / side / step)
    shutil.rmtree(tmp_path / "bench" / "step2")
    frame = dumpcmp.compare_probe_steps(tmp_path / "npu", tmp_path / "bench", tmp_path / "out")
    assert list(frame["Step"]) == ["0", "0", "2"]
    assert list(frame["Status"]) == ["compared", "compared", "no bench step"]
    for rank in ("rank0", "rank1"):
        written = frame.loc[frame["Pair"] == rank, "ResultFile"].iloc[0]
        assert filecmp.cmp(tmp_path / "out" / written,
                           os.path.join(DATA, "expected", f"tensor_ranks_{rank}.csv"),
                           shallow=False)
    assert os.path.isfile(frame.attrs["summary"]) and os.path.isfile(frame.attrs["index"])
    again = dumpcmp.compare_probe_steps(tmp_path / "npu", tmp_path / "bench", tmp_path / "out",
                                        resume=True)
    assert again["Resumed"].all()
    with pytest.raises(dumpcmp.Error):
        dumpcmp.compare_probe_steps(tmp_path / "npu", tmp_path / "bench", tmp_path / "out",
                                    resume=True, fuzzy_match=True)


def test_two_files_have_no_pair_column(tmp_path):
    npu = os.path.join(CROSS, "npu", "rank0", "dump.json")
    bench = os.path.join(CROSS, "bench", "rank0", "dump.json")
    frame = dumpcmp.compare_probe(npu, bench)
    assert frame.columns[0] == "NPU Name"
    assert frame.attrs["warnings"] == []


def test_refusals_raise(tmp_path):
    with pytest.raises(dumpcmp.Error, match="path does not exist"):
        dumpcmp.compare_probe(os.path.join(tmp_path, "none"), CROSS)
    pytorch = os.path.join(DATA, "tensor_cases", "tensor_ranks", "npu", "rank0", "dump.json")
    with pytest.raises(dumpcmp.Error, match="Argument -am is not supported in PyTorch framework"):
        dumpcmp.compare_probe(pytorch, pytorch, api_mapping=True)
