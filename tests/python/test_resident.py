"""dumpcmp.resident, the C entry point for tensors where they live: thrust-omp (the GPU's code path,
on host memory) and the cpu backend give the same accumulators bit for bit, and the metrics and
--quantiles dumpcmp.compare gives; CUDA tensors (torch) where a GPU is present, else those tests
skip."""
import os

import numpy as np
import pytest

import dumpcmp
from dumpcmp import resident

if not os.path.exists(os.path.join(os.path.dirname(resident.__file__), "libdumpcmp_resident.so")):
    pytest.skip("built without the device backends: no libdumpcmp_resident.so",
                allow_module_level=True)


def pair(dtype, n, seed, special=None):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 3).astype(dtype)
    y = (x.astype(np.float64) + rng.standard_normal(n) * 0.01).astype(dtype)
    if special is not None and n > 2:
        x[n // 2] = special
    return x, y


def same_values(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return np.array_equal(a, b, equal_nan=True)


CASES = [(dt, n, sp) for dt in (np.float32, np.float16, np.float64, np.int32, np.int8, np.bool_)
         for n in (0, 1, 7, 16384, 16385, 70001) for sp in (None, np.nan, np.inf)
         if sp is None or dt in (np.float32, np.float16, np.float64)]


def test_thrust_omp_in_place_equals_the_cpu_backend_and_compare():
    cpu, omp = resident.Session("cpu", threads=2), resident.Session("thrust-omp", threads=2)
    pairs = [pair(dt, n, seed, sp) for seed, (dt, n, sp) in enumerate(CASES)]
    want, got = cpu.reduce(pairs), omp.reduce(pairs)
    for (dt, n, sp), (x, y), w, g in zip(CASES, pairs, want, got):
        assert g.accumulators() == w.accumulators(), (dt, n, sp)
        expected = dumpcmp.compare(x, y, threads=2)
        for name, value in g.metric_values().items():
            assert same_values(value, expected[name]), (dt, n, sp, name, value, expected[name])


def same_quantiles(got, want):
    for name, value in want.items():
        if name.endswith("Histogram"):
            assert list(got[name]) == list(value), name
        elif name.startswith(("AbsError", "RelError")):
            assert same_values(got[name], value), (name, got[name], value)


def test_quantiles_in_place_equal_compares():
    """thrust-omp counts the pairs of more than 65,536 elements where they lie (the device's
    code), the cpu session on host threads: both give dumpcmp.compare(quantiles=True)'s values."""
    pairs = [pair(dt, n, seed, sp) for seed, (dt, n, sp) in enumerate(CASES)]
    for backend in ("thrust-omp", "cpu"):
        got = resident.Session(backend, threads=2).reduce(pairs, quantiles=True)
        for (dt, n, sp), (x, y), (result, quantiles) in zip(CASES, pairs, got):
            expected = dumpcmp.compare(x, y, threads=2, quantiles=True)
            values = quantiles.values()
            measures = [k for k in expected if k.startswith(("AbsError", "RelError"))]
            assert sorted(values) == sorted(measures)
            same_quantiles(values, expected)
            assert same_values(result.metric_values()["MaxAbsoluteError"],
                               expected["MaxAbsoluteError"]), (backend, dt, n, sp)
    x, y = pair(np.float32, 70001, 5)
    assert resident.compare(x, y, quantiles=True) == dumpcmp.compare(x, y, quantiles=True)


def test_many_against_one_golden_and_consistency():
    x, golden = pair(np.float32, 50000, 3)
    runs = [x, golden, x * np.float32(2)]
    many = resident.compare_many(runs, golden, metrics=["CosineSimilarity", "MaxAbsoluteError"])
    assert [sorted(m) for m in many] == [["CosineSimilarity", "MaxAbsoluteError"]] * 3
    assert many[1]["MaxAbsoluteError"] == 0.0 and many[1]["CosineSimilarity"] == 1.0
    first = resident.consistency(runs, metrics="1")
    assert [m["MaxAbsoluteError"] for m in first] == [many[0]["MaxAbsoluteError"],
                                                      float(np.abs(runs[2] - x).max())]
    everything = resident.consistency(runs, against="all", metrics=["MaxAbsoluteError"])
    assert sorted(everything) == [(0, 1), (0, 2), (1, 2)]
    assert everything[(0, 1)] == resident.compare(x, golden, metrics=["MaxAbsoluteError"])


def test_bad_inputs_are_named():
    x = np.zeros(10, np.float32)
    with pytest.raises(resident.DeviceError, match="hold 10 and 9 elements"):
        resident.Session("cpu").reduce([(x, x[:9])])
    with pytest.raises(resident.DeviceError, match="not contiguous"):
        resident.Session("cpu").reduce([(np.zeros((4, 4), np.float32).T, np.zeros((4, 4)).T)])
    with pytest.raises(resident.DeviceError, match="complex|DLPack code"):
        resident.Session("cpu").reduce([(np.zeros(3, np.complex64), np.zeros(3, np.complex64))])
    with pytest.raises(resident.DeviceError, match="backend must be cuda, thrust-omp or cpu"):
        resident.Session("tpu")
    with pytest.raises(ValueError, match="unknown metric"):
        resident.compare(x, x, metrics=["Cosine"])


def cuda_torch():
    try:
        import torch
    except ImportError:
        pytest.skip("no torch in this Python: the CUDA tensor tests run on a GPU host")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    return torch


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int32", "bool"])
def test_cuda_tensors_on_their_device_equal_the_cpu_backend(dtype):
    torch = cuda_torch()
    g = torch.Generator().manual_seed(7)
    x = torch.randn(300001, generator=g)
    y = x + torch.randn(300001, generator=g) * 0.01
    x[1000] = float("nan") if dtype in ("float32", "float16") else x[1000]
    x, y = x.to(getattr(torch, dtype)), y.to(getattr(torch, dtype))
    on_device = resident.Session("cuda").reduce([(x.cuda(), y.cuda())])[0]
    on_host = resident.Session("cpu").reduce([(x, y)])[0]
    assert on_device.accumulators() == on_host.accumulators()
    got = dumpcmp.compare(x.cuda(), y.cuda())
    for name, value in on_host.metric_values().items():
        assert same_values(got[name], value), name


def test_cuda_quantiles_counted_on_the_device_equal_the_hosts():
    torch = cuda_torch()
    g = torch.Generator().manual_seed(9)
    x = torch.randn(1 << 20, generator=g)
    y = x + torch.randn(1 << 20, generator=g) * 1e-3
    x[7] = float("nan")
    for n in (1 << 20, 1000):  # counted on the device; copied to the host
        got = dumpcmp.compare(x[:n].cuda(), y[:n].cuda(), quantiles=True)
        same_quantiles(got, dumpcmp.compare(x[:n].numpy(), y[:n].numpy(), quantiles=True))


def test_cuda_tensors_on_the_callers_stream():
    torch = cuda_torch()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        x = torch.randn(1 << 22, device="cuda")
        y = x * 2  # queued on `stream`: the compare must see it finished
        got = dumpcmp.compare(x, y, metrics=["MaxRelativeError"])
    assert got["MaxRelativeError"] == pytest.approx(0.5)
    with pytest.raises(resident.DeviceError, match="reduces CUDA tensors"):
        resident.Session("cuda").reduce([(x, y.cpu())])
