"""The Python module against the CLI it shares its engine with: dumps read without a copy, array
compares against numpy's own formulas, directory compares equal to the CLI's result rows."""
import csv
import math
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import dumpcmp

ROOT = os.environ["DUMPCMP_ROOT"]
CLI = os.environ["DUMPCMP_CLI"]
LAYOUTS = os.path.join(ROOT, "tests", "data", "msaccucmp_fusion", "layouts")
NC1HWC0_DUMP = os.path.join(LAYOUTS, "left", "Conv2D.conv.3.0.1700000000000003")


def test_read_dump_views_the_mapping():
    dump = dumpcmp.read_dump(NC1HWC0_DUMP)
    tensor = dump.inputs[0]
    array = tensor.array
    assert (tensor.dtype, tensor.format, tensor.shape) == ("DT_FLOAT16", "NC1HWC0", [1, 1, 4, 4, 16])
    assert array.dtype == np.float16 and array.shape == (1, 1, 4, 4, 16)
    assert not array.flags.writeable and not array.flags.owndata
    assert array.__array_interface__["data"][0] == dump.mapping_address + tensor.offset
    assert array.nbytes == tensor.size
    del dump, tensor  # the array keeps the mapping alive
    assert np.isfinite(array.astype(np.float32)).all()


def test_restored_is_the_nchw_tensor():
    tensor = dumpcmp.read_dump(NC1HWC0_DUMP).inputs[0]
    n, c1, h, w, c0 = tensor.shape
    channels = tensor.original_shape[1]
    expected = tensor.array.transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)[:, :channels]
    restored = tensor.restored()
    assert restored.shape == tuple(tensor.original_shape)
    assert np.array_equal(restored, expected)


def test_compare_matches_numpy():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 5, 7)).astype(np.float32)
    y = (x + 0.01 * rng.standard_normal(x.shape)).astype(np.float16)
    result = dumpcmp.compare(x, y)
    a, b = x.astype(np.float64).ravel(), y.astype(np.float64).ravel()
    cosine = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
    assert result["CosineSimilarity"] == pytest.approx(cosine, rel=1e-9)
    assert result["MaxAbsoluteError"] == pytest.approx(np.max(np.abs(a - b)), rel=1e-12)
    assert result["MeanAbsoluteError"] == pytest.approx(np.mean(np.abs(a - b)), rel=1e-9)
    assert result["RootMeanSquareError"] == pytest.approx(np.sqrt(np.mean((a - b) ** 2)), rel=1e-9)
    mean_x, std_x, mean_y, std_y = result["StandardDeviation"]
    assert (mean_x, std_x) == pytest.approx((a.mean(), a.std()), rel=1e-9)
    assert (mean_y, std_y) == pytest.approx((b.mean(), b.std()), rel=1e-9)
    assert list(dumpcmp.compare(x, y, metrics="0,1")) == ["CosineSimilarity", "MaxAbsoluteError"]


def numpy_errors(x, y):
    """|x - y| and the relative error term in float32, as the first pass computes them."""
    x, y = x.astype(np.float32).ravel(), y.astype(np.float32).ravel()
    with np.errstate(all="ignore"):
        absolute = np.abs(x - y)
        relative = np.where(np.abs(y).astype(np.float64) > np.finfo(np.float64).eps,
                            np.abs(x / y - np.float32(1)), np.float32(0)).astype(np.float32)
    return {"AbsError": absolute, "RelError": relative}


def numpy_histogram(e):
    edges = np.array([1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0], dtype=np.float32)
    finite = e[~np.isnan(e)]
    bins = np.where(finite == 0, 0, 1 + np.searchsorted(edges, finite, side="right"))
    return list(np.bincount(bins, minlength=10)) + [int(np.isnan(e).sum())]


@pytest.mark.parametrize("n", [1000, 100000])
def test_quantiles_equal_numpys(n):
    rng = np.random.default_rng(n)
    y = rng.standard_normal(n).astype(np.float32)
    x = (y * (1 + 1e-3 * rng.standard_normal(n))).astype(np.float16)
    x[::97] = np.float16("nan")
    y[::89] = 0
    result = dumpcmp.compare(x, y, metrics="MaxAbsoluteError", quantiles=True)
    for measure, e in numpy_errors(x, y).items():
        kept = e[~np.isnan(e)].astype(np.float64)
        expected = np.quantile(kept, [0.5, 0.99, 0.999])
        got = [result[measure + level] for level in ("P50", "P99", "P99.9")]
        assert got == list(expected), measure  # exact: order statistics, numpy's linear method
        assert result[measure + "Histogram"] == numpy_histogram(e), measure
    assert math.isnan(result["MaxAbsoluteError"])  # the maximum sees the NaNs; quantiles skip them


def test_quantile_columns_equal_the_cli(tmp_path):
    csv_path, rows = cli_rows(tmp_path / "cli", "-m", "left", "-g", "right", "-f", "model.json",
                              "--quantiles")
    frame = dumpcmp.compare_dirs(os.path.join(LAYOUTS, "left"), os.path.join(LAYOUTS, "right"),
                                 fusion_rule=os.path.join(LAYOUTS, "model.json"),
                                 out=tmp_path / "py", quantiles=True)
    header, body = rows[0], rows[1:]
    columns = [m + c for m in ("AbsError", "RelError")
               for c in ("P50", "P99", "P99.9", "Histogram")]
    assert header[-9:-1] == columns and list(frame.columns[-10:-2]) == columns
    compared = 0
    for r, row in enumerate(body):
        for c in columns:
            cell, value = row[header.index(c)], frame.at[r, c]
            if cell == "NaN":
                assert not isinstance(value, list) and math.isnan(value), (r, c)
            elif c.endswith("Histogram"):
                assert value == [int(v) for v in cell.split(";")], (r, c)
                compared += 1
            else:
                assert value == float(cell), (r, c)  # the CSV's text is the double's shortest
    assert compared > 0
    with open(frame.attrs["csv"], "rb") as ours, open(csv_path, "rb") as theirs:
        assert ours.read() == theirs.read()


def test_compare_refuses_what_it_cannot_compare():
    with pytest.raises(ValueError, match="hold 3 and 4 elements"):
        dumpcmp.compare(np.zeros(3), np.zeros(4))
    with pytest.raises(dumpcmp.Error):
        dumpcmp.compare(np.zeros(3), np.zeros(3), metrics="NoSuchMetric")


def test_errors_name_the_file(tmp_path):
    bad = tmp_path / "Conv2D.bad.1.0.1700000000000001"
    bad.write_bytes(b"\x01\x02\x03")
    with pytest.raises(dumpcmp.Error, match=str(bad)):
        dumpcmp.read_dump(bad)


def cli_rows(out, *args):
    subprocess.run([CLI, "compare", *args, "-out", str(out), "--device", "cpu"], cwd=LAYOUTS,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    (name,) = [f for f in os.listdir(out) if f.startswith("result_") and f.endswith(".csv")]
    with open(os.path.join(out, name), newline="") as f:
        return os.path.join(out, name), list(csv.reader(f))


def test_compare_dirs_equals_the_cli(tmp_path):
    csv_path, rows = cli_rows(tmp_path / "cli", "-m", "left", "-g", "right", "-f", "model.json")
    frame = dumpcmp.compare_dirs(os.path.join(LAYOUTS, "left"), os.path.join(LAYOUTS, "right"),
                                 fusion_rule=os.path.join(LAYOUTS, "model.json"),
                                 out=tmp_path / "py")
    header, body = rows[0], rows[1:]
    assert len(frame) == len(body) and len(frame.columns) == len(header) + 1
    metrics = {"CosineSimilarity", "MaxAbsoluteError", "AccumulatedRelativeError",
               "RelativeEuclideanDistance", "KullbackLeiblerDivergence", "MeanAbsoluteError",
               "RootMeanSquareError", "MaxRelativeError", "MeanRelativeError"}
    for r, row in enumerate(body):
        for c, cell in enumerate(row):
            value = frame.iat[r, c]
            if header[c] in metrics:
                if cell.lower() == "nan":
                    assert math.isnan(value)
                else:
                    assert value == pytest.approx(float(cell), abs=5e-7), (r, header[c])
            elif header[c] == "Index":
                assert value == int(cell)
            elif cell == "NaN":
                assert isinstance(value, float) and math.isnan(value), (r, header[c])
            else:
                assert value == cell, (r, header[c])
    assert frame["Index"].dtype == np.int64 and frame["CosineSimilarity"].dtype == np.float64
    assert set(frame["Verdict"]) <= {"pass", "fail", "not compared"}
    with open(frame.attrs["csv"], "rb") as ours, open(csv_path, "rb") as theirs:
        assert ours.read() == theirs.read()


def test_compare_dirs_reports_bad_paths(tmp_path):
    with pytest.raises(dumpcmp.Error, match="nonexistent"):
        dumpcmp.compare_dirs(tmp_path / "nonexistent", tmp_path)


def make_tree(base):
    """Two steps of one device on the NPU side; the golden side lacks step 5."""
    gen = os.environ["DUMPCMP_GEN"]
    for step, seed in (("0", "1"), ("5", "2")):
        data = base / ("gen" + step)
        subprocess.run([gen, "--out", str(data), "--ops", "6", "--seed", seed, "--noise", "0.01"],
                       check=True, stdout=subprocess.DEVNULL)
        for side, root, stamp in (("left", "npu", "20240101120000"), ("right", "gold", "20230101120000")):
            if side == "right" and step == "5":
                continue
            leaf = base / root / stamp / "0" / "ge_default_20240101115959_1" / "1" / step
            leaf.mkdir(parents=True)
            for f in (data / side).iterdir():
                (leaf / f.name).write_bytes(f.read_bytes())
    return base / "npu", base / "gold"


def test_compare_tree_equals_the_cli(tmp_path):
    npu, gold = make_tree(tmp_path)
    subprocess.run([CLI, "compare", "--tree", "-m", str(npu), "-g", str(gold), "-out",
                    str(tmp_path / "cli"), "--device", "cpu", "--quiet"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    frame = dumpcmp.compare_tree(npu, gold, tmp_path / "py")
    with open(tmp_path / "cli" / "summary.csv", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert list(frame["Status"]) == ["compared", "no golden"] == [r[header.index("Status")] for r in body]
    for r, row in enumerate(body):
        for c, name in enumerate(header):
            value = frame.at[r, name]
            if name == "ResultFile":
                continue  # named by the second it was written
            if row[c] == "":
                assert value is None or (not isinstance(value, str) and pd_isna(value)), (r, name)
            elif name in ("Rows", "Compared", "OutsideTolerance", "NotCompared"):
                assert int(value) == int(row[c])
            else:
                assert value == row[c], (r, name)
    ours = tmp_path / "py" / frame.at[0, "ResultFile"]
    theirs = tmp_path / "cli" / body[0][header.index("ResultFile")]
    assert ours.read_bytes() == theirs.read_bytes()
    assert frame["Rows"].dtype == "Int64" and frame.at[0, "Rows"] > 0


def test_compare_tree_writes_the_clis_files(tmp_path):
    """The run layer's tree run from Python writes what `compare --tree` writes, options included:
    every file equal once the second each result was written is taken out of its name."""
    npu, gold = make_tree(tmp_path)
    cli, py = tmp_path / "cli", tmp_path / "py"
    threshold = "CosineSimilarity=0.99999999"
    subprocess.run([CLI, "compare", "--tree", "-m", str(npu), "-g", str(gold), "-out", str(cli),
                    "--device", "cpu", "--quiet", "--hdf5", str(cli / "run.h5"), "-advisor",
                    "--mirror", "--quantiles", "--threshold", threshold],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # 2: a leaf lacks a golden
    frame = dumpcmp.compare_tree(npu, gold, py, hdf5=py / "run.h5", advisor=True, mirror=True,
                                 quantiles=True, thresholds=[threshold])
    assert list(frame["Status"]) == ["compared", "no golden"]
    assert frame.at[0, "OutsideTolerance"] > 0  # the threshold is applied
    stamp = re.compile(r"(result|dumpcmp)_\d{14}")
    def files(root):
        found = {}
        for f in sorted(root.rglob("*")):
            if f.is_file():
                found[stamp.sub(r"\1_TS", str(f.relative_to(root)))] = f
        return found
    ours, theirs = files(py), files(cli)
    assert sorted(ours) == sorted(theirs)
    assert {"summary.csv", "index.html", "advisor_summary.txt"} <= set(ours)
    assert any(name.endswith("result_TS.csv") for name in ours)
    assert any(name.endswith("result_TS.h5") for name in ours)  # one beside each leaf's CSV
    for name, f in ours.items():
        if name.endswith(".h5"):
            continue  # read back below
        text, expected = f.read_text(), theirs[name].read_text()
        if name.startswith("dumpcmp_TS"):  # the log names the command first
            text, expected = text.split("\n", 1)[1], expected.split("\n", 1)[1]
        assert stamp.sub("TS", text) == stamp.sub("TS", expected), name
    if shutil.which("h5dump") is None:
        pytest.skip("no h5dump (hdf5-tools) to read the HDF5 files back")
    dump = lambda f: stamp.sub("TS", subprocess.run(["h5dump", "-A", "0", str(f)], check=True,
                                                    capture_output=True, text=True).stdout)
    assert dump(py / "run.h5").splitlines()[1:] == dump(cli / "run.h5").splitlines()[1:]


def pd_isna(value):
    import pandas as pd

    return pd.isna(value)


def test_compare_dirs_reports_progress():
    calls = []
    frame = dumpcmp.compare_dirs(os.path.join(LAYOUTS, "left"), os.path.join(LAYOUTS, "right"),
                                 fusion_rule=os.path.join(LAYOUTS, "model.json"),
                                 progress=lambda done, total, nbytes: calls.append((done, total)))
    assert len(frame) > 0 and calls
    assert calls[-1][0] == calls[-1][1] and all(d <= t for d, t in calls)

    def broken(done, total, nbytes):
        raise RuntimeError("stop here")
    with pytest.raises(ValueError, match="stop here"):
        dumpcmp.compare_dirs(os.path.join(LAYOUTS, "left"), os.path.join(LAYOUTS, "right"),
                             fusion_rule=os.path.join(LAYOUTS, "model.json"), progress=broken)


def test_compare_takes_torch_tensors():
    torch = pytest.importorskip("torch")  # not installed by the project: skipped without it
    x = torch.randn(3, 4, dtype=torch.bfloat16)
    y = x.float() * 1.001
    result = dumpcmp.compare(x, y, metrics="0,1")
    expected = dumpcmp.compare(x.float().numpy(), y.numpy(), metrics="0,1")
    assert result == pytest.approx(expected, rel=1e-12)


def without_run_values(text, run_values):
    """The text's HTML tags and texts, each element of it that names the run (the paths as
    given, the command, the result file, the elapsed time) left out."""
    return [part for part in text.split(">") if not any(v in part for v in run_values)]


def test_compare_dirs_writes_the_clis_reports(tmp_path):
    cli, py = tmp_path / "cli", tmp_path / "py"
    options = ["--threshold", "CosineSimilarity=0.99995"]
    csv_path, _ = cli_rows(cli, "-m", "left", "-g", "right", "-f", "model.json", "-advisor",
                           "--html", str(cli / "report.html"), "--hdf5", str(cli / "run.h5"),
                           "--model-explorer", str(cli / "me"), *options)
    frame = dumpcmp.compare_dirs(os.path.join(LAYOUTS, "left"), os.path.join(LAYOUTS, "right"),
                                 fusion_rule=os.path.join(LAYOUTS, "model.json"), out=py,
                                 html=py / "report.html", hdf5=py / "run.h5", advisor=True,
                                 model_explorer=py / "me", thresholds=[options[1]])
    with open(frame.attrs["csv"], "rb") as ours, open(csv_path, "rb") as theirs:
        assert ours.read() == theirs.read()
    for name in ("advisor_summary.txt", "me/graph.json", "me/verdict.json"):
        assert (py / name).read_bytes() == (cli / name).read_bytes(), name
    assert frame.attrs["advice"] == (py / "advisor_summary.txt").read_text().splitlines()
    assert "fail" in set(frame["Verdict"])  # the threshold is applied
    # The report differs only where it names the run: the paths as given, the command, the
    # result file, the time.
    run_values = ["left<", "right<", "compare -m", "compare_dirs", "result_", " s on the "]
    ours = without_run_values((py / "report.html").read_text(), run_values)
    theirs = without_run_values((cli / "report.html").read_text(), run_values)
    assert ours == theirs and len(ours) > 200
    # The HDF5 files hold the same rows; their attributes name the run.
    if shutil.which("h5dump") is None:
        pytest.skip("no h5dump (hdf5-tools) to read the HDF5 files back")
    dump = lambda f: subprocess.run(["h5dump", "-A", "0", str(f)], check=True,
                                    capture_output=True, text=True).stdout.splitlines()[1:]
    assert dump(py / "run.h5") == dump(cli / "run.h5")


def test_compare_dirs_logs_bad_inputs_as_the_cli(tmp_path):
    """A broken dump fails its own row; compare_dirs names it in its warnings and writes the run's
    log the CLI writes."""
    subprocess.run([os.environ["DUMPCMP_GEN"], "--out", str(tmp_path / "d"), "--ops", "4"],
                   check=True, stdout=subprocess.DEVNULL)
    left = tmp_path / "d" / "left"
    broken = sorted(left.iterdir())[1]
    broken.write_bytes(broken.read_bytes()[:10])
    cli, py = tmp_path / "cli", tmp_path / "py"
    subprocess.run([CLI, "compare", "-m", str(left), "-g", str(tmp_path / "d" / "right"), "-out",
                    str(cli), "--device", "cpu", "--quiet"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    frame = dumpcmp.compare_dirs(left, tmp_path / "d" / "right", out=py)
    assert any(broken.name in w for w in frame.attrs["warnings"])
    (theirs,) = cli.glob("dumpcmp_*.log")
    (ours,) = py.glob("dumpcmp_*.log")
    assert broken.name in ours.read_text()
    assert ours.read_text().splitlines()[1:] == theirs.read_text().splitlines()[1:]


def test_compare_dirs_reports_need_an_output_directory(tmp_path):
    with pytest.raises(ValueError, match="written with out=DIR"):
        dumpcmp.compare_dirs(os.path.join(LAYOUTS, "left"), os.path.join(LAYOUTS, "right"),
                             html=tmp_path / "r.html")
