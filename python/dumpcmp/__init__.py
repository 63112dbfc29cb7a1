"""dumpcmp from Python: the engine of the `dumpcmp` CLI.

    import dumpcmp
    dump = dumpcmp.read_dump("Conv2D.conv1.3.0.1700000000000003")
    x = dump.outputs[0].array          # a read-only numpy view of the mapped file
    nchw = dump.outputs[0].restored()  # the device layout restored, as msaccucmp restores it
    dumpcmp.compare(x, y)              # {"CosineSimilarity": 0.99..., ...}
    df = dumpcmp.compare_dirs("npu_dump", "golden_dump", fusion_rule="model.json")

Errors the CLI reports come as dumpcmp.Error with the CLI's message. Long compares release the GIL.
CUDA tensors (torch, CuPy, JAX) are compared on their device (dumpcmp.resident), which loads on
any Python 3 even where the _dumpcmp extension was built for another version; so does
dumpcmp.live, a PyTorch run compared with an NPU run's msprobe dump as it runs.
"""

from . import live, resident

try:
    from . import _dumpcmp
except ImportError as e:  # e.g. another Python version than the build's: only resident works
    _dumpcmp = None
    _missing = e

if _dumpcmp is not None:
    Error = _dumpcmp.Error
    Dump = _dumpcmp.Dump
    Tensor = _dumpcmp.Tensor
    __version__ = _dumpcmp.version()

__all__ = ["Error", "Dump", "Tensor", "read_dump", "compare", "compare_dirs", "compare_probe",
           "compare_probe_steps", "compare_tree", "live", "resident", "__version__"]


def _engine():
    if _dumpcmp is None:
        raise ImportError("dumpcmp's _dumpcmp extension did not load (%s); dumpcmp.resident "
                          "compares tensors on a CUDA device without it" % _missing)
    return _dumpcmp


def _on_cuda(value):
    return hasattr(value, "__dlpack_device__") and value.__dlpack_device__()[0] == 2


def _metric_tokens(metrics):
    """msaccucmp's -alg spellings: None or "all" for the ten, else names or indexes."""
    if metrics is None or metrics == "all":
        return []
    if isinstance(metrics, str):
        return [metrics]
    return [",".join(str(m) for m in metrics)]


def read_dump(path):
    """The dump file at `path` (binary or protobuf dump, .npy): its op name, dump time, and
    inputs/outputs as Tensor objects whose .array views the mapped file without a copy."""
    return _engine().Dump(str(path))


def compare(my_output, ground_truth, metrics=None, threads=0, quantiles=False, stream=None):
    """msaccucmp's metrics of two arrays of the same size, element by element in C order (numpy
    arrays, or anything numpy.asarray takes). Returns {metric name: value}; NaN where msaccucmp
    prints NaN; StandardDeviation is (NPU mean, NPU std, golden mean, golden std). With
    `quantiles`, also the exact P50, P99 and P99.9 of |x - y| and of the relative error
    ("AbsErrorP50", ..., "RelErrorP99.9", numpy's linear method) and their decade histograms
    ("AbsErrorHistogram", "RelErrorHistogram": lists of counts, docs/quantiles.md).
    Two CUDA tensors are reduced on their device, on `stream` (default: their current stream),
    with the same values bit for bit, quantiles included (dumpcmp.resident.compare)."""
    if _on_cuda(my_output) or _on_cuda(ground_truth):
        return resident.compare(my_output, ground_truth, metrics, stream, quantiles)
    import numpy as np

    def array(value):
        # DLPack objects on the CPU (torch tensors, bf16 included) are taken as they are.
        if hasattr(value, "__dlpack__") and not isinstance(value, np.ndarray):
            return value
        return np.ascontiguousarray(value)

    return _engine().compare_arrays(array(my_output), array(ground_truth), _metric_tokens(metrics),
                                   threads, bool(quantiles))


def compare_dirs(my_path, golden_path, fusion_rule=None, quant_rule=None, metrics=None, out=None,
                 device="cpu", threads=0, progress=None, quantiles=False, html=None, hdf5=None,
                 advisor=False, model_explorer=None, thresholds=()):
    """A whole compare, as `dumpcmp compare -m MY -g GOLDEN [-f RULE] [-q RULE] [-alg ...]` runs
    it. Returns a pandas DataFrame with one row per result row: the CSV's columns (the two
    DataType and Address columns named NPU... and GroundTruth...), metric columns as floats,
    Index as integers, NaN where msaccucmp prints NaN, and a Verdict column. With `out`, the
    result_<timestamp>.csv is written there too (df.attrs["csv"] names it), and the CLI's reports
    as its options name them: `html` (--html FILE), `hdf5` (--hdf5 FILE), `advisor` (-advisor:
    advisor_summary.txt in `out`, its lines in df.attrs["advice"]), `model_explorer`
    (--model-explorer DIR, the model of `fusion_rule`); `thresholds` are --threshold's
    '[PATTERN:]Metric=V' texts. `progress`, if given, is called as progress(ops_done, ops_total,
    bytes_compared) while the compare runs. `quantiles` adds --quantiles' columns (floats, and
    the histograms as lists of counts)."""
    import pandas as pd

    result = _engine().compare_dirs(str(my_path), str(golden_path), str(fusion_rule or ""),
                                    str(quant_rule or ""), _metric_tokens(metrics), str(out or ""),
                                    device, threads, progress, bool(quantiles), str(html or ""),
                                    str(hdf5 or ""), bool(advisor), str(model_explorer or ""),
                                    [str(t) for t in thresholds])
    frame = pd.DataFrame(dict(zip(result["columns"], result["data"])), columns=result["columns"])
    if "Index" in frame.columns:
        frame["Index"] = frame["Index"].astype("int64")
    frame.attrs["csv"] = result["csv"]
    frame.attrs["warnings"] = list(result["warnings"])
    if "advice" in result:
        frame.attrs["advice"] = list(result["advice"])
    return frame


def _mapping_flag(value):
    """-cm/-am/-lm as the engine takes them: None for off, "" for the bare flag, else the path."""
    if value is None or value is False:
        return None
    return "" if value is True else str(value)


def compare_probe(npu_path, bench_path, out=None, data_mapping=None, cell_mapping=None,
                  api_mapping=None, layer_mapping=None, xlsx=False, pandas=3, fuzzy_match=False,
                  numpy=2, device="cpu", threads=0, html=None, hdf5=None, quantiles=False,
                  config=None, consistent_check=None):
    """msprobe's compare of two training-run dumps, as `dumpcmp compare -tp NPU -gp BENCH -o OUT`
    (`msprobe compare`) runs it: `npu_path` and `bench_path` are two dump.json (or debug.json)
    files or two step directories of rank*/proc* directories. `data_mapping` is -dm's YAML;
    `cell_mapping`, `api_mapping` and `layer_mapping` are -cm's, -am's and -lm's: a YAML path, or
    True for the bare flag. Returns a pandas DataFrame of the result rows with msprobe's columns,
    each cell as the CSV writes it (a column whose every cell is a number is numeric), and a
    leading "Pair" column naming the rank or proc directory when directories were compared. With
    `out`, msprobe's compare_result[_<rank>]_<ts>.csv files (.xlsx with `xlsx=True`) are written
    there (df.attrs["files"]); without it they are written to a temporary directory and removed.
    `pandas=2` writes the cells msprobe writes under pandas 2.x (--pandas 2), `numpy=1` those it
    writes beside numpy 1.x (--numpy 1); `fuzzy_match=True` pairs rows as -fm does. `device`
    ("cpu", "thrust-omp", "cuda"; "auto" keeps them on the cpu) and `threads` are where tensor
    mode's pairs are reduced, the same cells on each (--device, -j). `html` (a path) also writes
    --html's page of the pairs and their error and warning rows, `hdf5` (a path) --hdf5's file of
    the result tables. `quantiles=True` adds --quantiles' columns (tensor mode); `config` is
    --config's post-processing YAML (tensor mode's matmuls; PyTorch runs, as msprobe applies it).
    `consistent_check` ("fsdp" or "megatron") compares a verl training run against its inference
    run, as --consistent_check --backend BACKEND does (PyTorch runs; MindSpore's ignore it).
    df.attrs["warnings"] holds the warnings (pairs skipped, data files not read)."""
    import tempfile

    import pandas as pd

    def run(directory):
        return _engine().compare_probe(str(npu_path), str(bench_path), directory,
                                       str(data_mapping or ""), _mapping_flag(cell_mapping),
                                       _mapping_flag(api_mapping),
                                       _mapping_flag(layer_mapping), bool(xlsx),
                                       int(pandas), bool(fuzzy_match), int(numpy), str(device),
                                       int(threads), str(html or ""), str(hdf5 or ""),
                                       bool(quantiles), str(config or ""),
                                       str(consistent_check or ""))

    if out is None:
        with tempfile.TemporaryDirectory(prefix="dumpcmp-probe-") as directory:
            result = run(directory)
        files = []
    else:
        result = run(str(out))
        files = list(result["files"])
    frames = []
    for table in result["tables"]:
        frame = pd.DataFrame(table["rows"], columns=table["columns"], dtype=object)
        if table["pair"]:
            frame.insert(0, "Pair", table["pair"])
        frames.append(frame)
    if frames:
        frame = pd.concat(frames, ignore_index=True)
    else:
        frame = pd.DataFrame()
    for column in frame.columns:
        try:
            frame[column] = pd.to_numeric(frame[column])
        except (ValueError, TypeError):
            pass
    frame.attrs["files"] = files
    frame.attrs["warnings"] = list(result["warnings"])
    return frame


def compare_probe_steps(npu_path, bench_path, out, steps=None, resume=False, data_mapping=None,
                        cell_mapping=None, api_mapping=None, layer_mapping=None, xlsx=False,
                        pandas=3, fuzzy_match=False, numpy=2, device="cpu", threads=0,
                        quantiles=False, config=None, consistent_check=None):
    """A whole training run, as `dumpcmp compare -tp NPU -gp BENCH --steps [STEPS] -o OUT` runs it:
    every step<N> directory of the NPU dump path against the bench's, each into OUT/step<N>/ with
    msprobe's files for that step, then OUT/summary.csv and OUT/index.html (docs/trees.md).
    `steps` selects steps ("0|3-5"; None: every one); `resume=True` skips the steps an earlier run
    of the same call finished. The mapping, xlsx, pandas, numpy, fuzzy_match, device, threads,
    quantiles, config and consistent_check arguments are compare_probe's. Returns summary.csv's lines as a DataFrame (a "Resumed" column added);
    df.attrs holds "summary", "index" and "warnings"."""
    import pandas as pd

    result = _engine().compare_probe_steps(
        str(npu_path), str(bench_path), str(out), str(steps or ""), bool(resume),
        str(data_mapping or ""), _mapping_flag(cell_mapping), _mapping_flag(api_mapping),
        _mapping_flag(layer_mapping), bool(xlsx), int(pandas), bool(fuzzy_match), int(numpy),
        str(device), int(threads), bool(quantiles), str(config or ""),
        str(consistent_check or ""))
    frame = pd.DataFrame(list(result["pairs"]))
    frame.attrs["summary"] = result["summary"]
    frame.attrs["index"] = result["index"]
    frame.attrs["warnings"] = list(result["warnings"])
    return frame


def compare_tree(my_root, golden_root, out, fusion_rule=None, quant_rule=None, metrics=None,
                 steps=None, devices=None, resume=False, device="cpu", threads=0,
                 quantiles=False, hdf5=None, advisor=False, mirror=False, thresholds=None):
    """A whole run, as `dumpcmp compare --tree -m MY_ROOT -g GOLDEN_ROOT -out OUT` runs it, with
    the same files: one <stem>_result_<ts>.csv per leaf pair, summary.csv, index.html and the
    run's log in `out`. `steps` takes --steps' text ("0-10|20"), `devices` a list of device ids.
    Returns summary.csv as a pandas DataFrame (counts as integers, None where the CSV cell is
    empty); df.attrs["summary"] names the file. `quantiles`, `hdf5` (a file path), `advisor`,
    `mirror` and `thresholds` (a list of "[PATTERN:]Metric=VALUE") are the CLI's --quantiles,
    --hdf5, --advisor, --mirror and --threshold."""
    import pandas as pd

    devices = [str(d) for d in (devices or [])]
    result = _engine().compare_tree(str(my_root), str(golden_root), str(out), str(fusion_rule or ""),
                                   str(quant_rule or ""), _metric_tokens(metrics), str(steps or ""),
                                   devices, bool(resume), device, threads, bool(quantiles),
                                   str(hdf5 or ""), bool(advisor), bool(mirror),
                                   [str(t) for t in (thresholds or [])])
    frame = pd.DataFrame(dict(zip(result["columns"], result["data"])), columns=result["columns"])
    for column in ("Rows", "Compared", "OutsideTolerance", "NotCompared", "FirstDivergentIndex"):
        frame[column] = frame[column].astype("Int64")
    frame.attrs["summary"] = result["summary"]
    frame.attrs["warnings"] = list(result["warnings"])
    return frame
