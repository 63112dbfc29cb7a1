"""dumpcmp.compare_probe: msprobe's compare of training-run dumps from Python, the same rows as the
files msprobe 26.2.0 wrote (tests/data/msprobe_dump), as a DataFrame and, with out=, as files."""
import ast
import csv
import filecmp
import glob
import gzip
import json
import os
import subprocess
import sys

import numpy as np
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


def hdf5_rows(dataset, header):
    """The records of an --hdf5 table as CSV-like rows: text as written, numbers as float."""
    records = dataset[:]
    assert list(records.dtype.names) == header
    rows = []
    for record in records:
        rows.append([v.decode() if isinstance(v, bytes) else float(v) for v in record])
    return rows


def number_of(cell):
    """A number column's cell as --hdf5 holds it (docs/hdf5.md)."""
    if cell in ("True", "False"):
        return float(cell == "True")
    try:
        return float(cell[:-1] if cell.endswith("%") else cell)
    except ValueError:
        return float("nan")


def same_rows(hdf5, csv_rows):
    assert len(hdf5) == len(csv_rows)
    for got, row in zip(hdf5, csv_rows):
        for value, text in zip(got, row):
            if isinstance(value, str):
                assert value == text
            else:
                assert value == pytest.approx(number_of(text), rel=0, abs=0, nan_ok=True), text


@pytest.mark.parametrize("case", ["tensor_ranks", "quick_start"])
def test_hdf5_holds_the_csv_rows(tmp_path, case):
    h5py = pytest.importorskip("h5py")
    if case == "quick_start":  # statistics mode, two dump.json files: percentages, "N/A"
        for step in ("step0", "step1"):
            os.makedirs(tmp_path / step)
            for name in ("dump.json", "stack.json"):
                with gzip.open(os.path.join(DATA, "quick_start", step, "proc2016", name + ".gz")) \
                        as f:
                    (tmp_path / step / name).write_bytes(f.read())
        npu, bench = tmp_path / "step0" / "dump.json", tmp_path / "step1" / "dump.json"
    else:  # tensor mode, two ranks
        npu, bench = (os.path.join(DATA, "tensor_cases", case, side) for side in ("npu", "bench"))
    frame = dumpcmp.compare_probe(npu, bench, out=tmp_path / "out", hdf5=tmp_path / "r.h5")
    assert os.path.exists(tmp_path / "r.h5") and not os.path.exists(tmp_path / "r.h5.partial")
    with h5py.File(tmp_path / "r.h5") as f:
        assert f.attrs["tool"] == b"dumpcmp" and f.attrs["target_path"] == str(npu).encode()
        files = sorted(frame.attrs["files"])
        if case == "quick_start":
            assert list(f.keys()) == ["results"] and len(files) == 1
            tables = {files[0]: f["results"]}
        else:
            assert sorted(f["pairs"].keys()) == ["rank0", "rank1"]
            tables = {file: f["pairs"][rank]["results"] for file, rank in
                      zip(files, ("rank0", "rank1"))}
            assert f["pairs"]["rank1"]["results"].attrs["pair"] == b"rank1"
        numbers = 0
        for file, dataset in tables.items():
            header, rows = expected_rows(file)
            got = hdf5_rows(dataset, header)
            same_rows(got, rows)
            numbers += sum(isinstance(v, float) and v == v for r in got for v in r)
            if case == "quick_start":
                column = header.index("MaxRelativeErr")
                assert any(r[column].endswith("%") for r in rows)
                assert dataset.dtype["MaxRelativeErr"] == "float64"
        assert numbers > 0


def msprobe_errors(npu, bench):
    """Tensor mode's per-element errors as docs/quantiles.md defines them, in numpy: both sides
    as float64, NaN and inf (matched) set to zero on both, |npu - bench| in float64, the relative
    error in float32 when both sides are floats of at most 4 bytes (get_relative_err)."""
    x, y = npu.astype(np.float64).ravel(), bench.astype(np.float64).ravel()
    special = ~np.isfinite(x) | ~np.isfinite(y)
    x[special] = 0
    y[special] = 0
    kind = np.float32 if all(a.dtype.kind == "f" and a.itemsize <= 4 for a in (npu, bench)) \
        else np.float64
    xt, yt = x.astype(kind), y.astype(kind)
    shift = np.where(yt == 0, np.finfo(kind).eps, 0).astype(kind)
    relative = np.abs(((xt + shift) - (yt + shift)) / (yt + shift)).astype(np.float64)
    return np.abs(x - y), relative


def expected_cells(errors):
    kept = errors[~np.isnan(errors)]
    cells = [repr(float(q)) for q in np.quantile(kept, [0.5, 0.99, 0.999])] if kept.size \
        else ["nan"] * 3
    edges = [0.0] + [float(np.float32(e)) for e in (1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0)]
    bins = [int((errors == 0).sum())]
    for low, high in zip(edges, edges[1:] + [np.inf]):
        inside = (errors > low) if low == 0 else (errors >= low)
        bins.append(int((inside & ((errors < high) if high != np.inf else True)).sum()))
    bins.append(int(np.isnan(errors).sum()))
    return cells + [";".join(map(str, bins))]


def mindspore_side(root, arrays):
    os.makedirs(root / "dump_tensor_data")
    names = {np.float32: "Float32", np.float16: "Float16", np.float64: "Float64",
             np.int32: "Int32"}
    args = []
    for i, a in enumerate(arrays):
        name = f"Mint.mul.0.forward.input.{i}"
        np.save(root / "dump_tensor_data" / (name + ".npy"), a)
        f = a.astype(np.float64)
        args.append({"type": "mindspore.Tensor", "dtype": names[a.dtype.type],
                     "shape": list(a.shape), "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0,
                     "data_name": name + ".npy"})
    data = {"Mint.mul.0.forward": {"input_args": args, "input_kwargs": {}, "output": []}}
    (root / "dump.json").write_text(json.dumps({"task": "tensor", "level": "mix",
                                                "framework": "mindspore", "data": data}))


def test_quantiles_are_numpys_of_msprobes_errors(tmp_path):
    rng = np.random.default_rng(5)
    big = rng.standard_normal(300_000).astype(np.float32)  # selected by counting passes
    noisy = (big * (1 + rng.standard_normal(big.size) * 1e-3)).astype(np.float32)
    noisy[:50] = big[:50]
    big[100:110] = np.nan
    noisy[100:110] = np.nan  # matched NaN: zero errors
    big[200] = noisy[200] = np.inf
    bench_big = big.copy()
    bench_big[300:400] = 0  # zeros on the bench side: the relative error's epsilon
    ints = rng.integers(-1000, 1000, 70_000).astype(np.int32)
    halves = rng.standard_normal(500).astype(np.float16)
    npu = [noisy, ints + (rng.integers(0, 3, ints.size) == 0), halves,
           rng.standard_normal(33).astype(np.float64)]
    bench = [bench_big, ints, halves.astype(np.float32) * 1.001, npu[3] + 1e-9]
    npu[0][300:310] = 0
    mindspore_side(tmp_path / "npu" / "rank0", npu)
    mindspore_side(tmp_path / "bench" / "rank0", bench)
    frame = dumpcmp.compare_probe(tmp_path / "npu", tmp_path / "bench", quantiles=True,
                                  threads=2)
    columns = [f"{m}{c}" for m in ("AbsError", "RelError") for c in ("P50", "P99", "P99.9",
                                                                         "Histogram")]
    assert list(frame.columns[-8:]) == columns
    for i, (n, b) in enumerate(zip(npu, bench)):
        absolute, relative = msprobe_errors(n, b)
        want = expected_cells(absolute) + expected_cells(relative)
        got = [str(frame.at[i, c]) if "Histogram" in c else repr(float(frame.at[i, c]))
               for c in columns]
        assert got == want, (i, got, want)
    # The rows of the shipped case too; a row not compared has N/A.
    case = os.path.join(DATA, "tensor_cases", "tensor_mindspore")
    frame = dumpcmp.compare_probe(os.path.join(case, "npu"), os.path.join(case, "bench"),
                                  quantiles=True)
    compared = 0
    for _, row in frame.iterrows():
        names = ast.literal_eval(row["Data_name"])
        if str(row["AbsErrorP50"]) == "N/A":
            continue
        arrays = [np.load(os.path.join(case, side, "rank0", "dump_tensor_data", name))
                  for side, name in zip(("npu", "bench"), names)]
        absolute, relative = msprobe_errors(*arrays)
        got = [str(row[c]) if "Histogram" in c else repr(float(row[c])) for c in columns]
        assert got == expected_cells(absolute) + expected_cells(relative), row["NPU Name"]
        compared += 1
    assert compared >= 4 and (frame["AbsErrorP50"].astype(str) == "N/A").any()


def test_config_multiplies_as_msprobe(monkeypatch):
    case = os.path.join(DATA, "config_case")
    monkeypatch.chdir(case)  # its matrices are named relative to it
    frame = dumpcmp.compare_probe("npu", "bench", config="config.yaml")
    header, rows = expected_rows(os.path.join(case, "expected.csv"))
    assert list(frame.columns) == ["Pair"] + header and len(frame) == len(rows)
    for i, row in enumerate(rows):
        if row[0] == "Functional.linear.2.forward.input.0":  # full precision: BLAS's order
            assert float(frame.at[i, "Cosine"]) == pytest.approx(float(row[8]), rel=1e-6)
            continue
        for column, text in zip(header, row):
            assert same_cell(frame.at[i, column], text), (i, column, frame.at[i, column], text)
    assert any("mats/bf16.pt" in w for w in frame.attrs["warnings"])


@pytest.mark.parametrize("case", ["fsdp_tensor", "megatron_statistics"])
def test_consistent_check_writes_msprobes_file(tmp_path, case):
    verl = os.path.join(DATA, "verl")
    backend = case.split("_")[0]
    frame = dumpcmp.compare_probe(os.path.join(verl, case, "npu"), os.path.join(verl, case, "bench"),
                                  out=tmp_path, consistent_check=backend)
    assert filecmp.cmp(frame.attrs["files"][0], os.path.join(verl, "expected", case + ".csv"),
                       shallow=False)
    header, rows = expected_rows(os.path.join(verl, "expected", case + ".csv"))
    assert len(frame) == len(rows)
    gathered = frame["NPU Name" if backend == "fsdp" else "Bench Name"]
    assert any(";  " in name for name in gathered)  # merged projections gathered
    assert (frame["NPU Name"] == "N/A").any() or (frame["Bench Name"] == "N/A").any()
    with pytest.raises(ValueError, match="fsdp' or 'megatron"):
        dumpcmp.compare_probe(os.path.join(verl, case, "npu"), os.path.join(verl, case, "bench"),
                              consistent_check="ddp")
