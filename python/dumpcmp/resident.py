"""Tensors compared where they live: CUDA tensors of torch, CuPy or JAX (anything with DLPack),
reduced on their device by the kernels of dumpcmp's cuda backend, on the caller's stream, without
a copy to the host; the accumulators, and so the metrics, are the cpu backend's bit for bit.

This module needs only ctypes and the libdumpcmp_resident.so beside it (python/resident_api.cpp),
so it loads on any Python 3, whichever version the _dumpcmp extension was built for.

    from dumpcmp import resident
    resident.compare(npu_out, bench_out)               # {"CosineSimilarity": ..., ...}
    resident.compare_many([rank0, rank1, ...], golden)  # every run against one golden
    resident.consistency([rank0, rank1, ...])           # each rank against rank 0
"""

import ctypes
import math
import os
import struct

METRICS = ("CosineSimilarity", "MaxAbsoluteError", "AccumulatedRelativeError",
           "RelativeEuclideanDistance", "KullbackLeiblerDivergence", "StandardDeviation",
           "MeanAbsoluteError", "RootMeanSquareError", "MaxRelativeError", "MeanRelativeError")

_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST = 1, 2, 3


class DeviceError(RuntimeError):
    """A compare of tensors on a device could not run; the message says why."""


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("count", ctypes.c_int64), ("dl_code", ctypes.c_uint8),
                ("dl_bits", ctypes.c_uint8)]


class _Pair(ctypes.Structure):
    _fields_ = [("x", _Tensor), ("y", _Tensor), ("scalar", ctypes.c_int32)]


class SideStats(ctypes.Structure):
    _fields_ = [("nan", ctypes.c_uint64), ("pos_inf", ctypes.c_uint64),
                ("neg_inf", ctypes.c_uint64), ("finite", ctypes.c_uint64),
                ("mean", ctypes.c_double), ("m2", ctypes.c_double), ("min", ctypes.c_float),
                ("max", ctypes.c_float)]


class PairResult(ctypes.Structure):
    """One pair's accumulators (dumpcmp_resident.h) and its 13 metric values."""
    _fields_ = [("both_bool", ctypes.c_int32), ("has_kld", ctypes.c_int32), ("n", ctypes.c_uint64),
                ("sum_xx", ctypes.c_double), ("sum_yy", ctypes.c_double),
                ("sum_xy", ctypes.c_double), ("sum_d2", ctypes.c_double),
                ("sum_abs_d", ctypes.c_double), ("sum_rel", ctypes.c_double),
                ("max_abs_d", ctypes.c_float), ("max_rel", ctypes.c_float),
                ("nan_abs_d", ctypes.c_uint64), ("nan_rel", ctypes.c_uint64), ("x", SideStats),
                ("y", SideStats), ("kld_sum_p", ctypes.c_double), ("kld_sum_q", ctypes.c_double),
                ("kld_sum_plogpq", ctypes.c_double), ("bool_n", ctypes.c_uint64),
                ("x_true", ctypes.c_uint64), ("y_true", ctypes.c_uint64),
                ("both_true", ctypes.c_uint64), ("metrics", ctypes.c_double * 13)]

    def accumulators(self):
        """Every accumulator field's value, in order (NaN as None: a GPU and a CPU spell NaN
        with different bits, and both mean the same). Two results have the same accumulators,
        bit for bit, when these lists are equal."""
        values = []
        for name, kind in self._fields_:
            if name == "metrics":
                continue
            value = getattr(self, name)
            for v in ([getattr(value, f) for f, _ in kind._fields_] if hasattr(kind, "_fields_")
                      else [value]):
                values.append(None if v != v else
                              struct.pack("<d", v) if isinstance(v, float) else v)
        return values

    def metric_values(self, names=METRICS):
        """{name: value} in -alg order; StandardDeviation as (NPU mean, NPU std, golden mean,
        golden std); NaN where msaccucmp prints NaN."""
        out = {}
        k = 0
        for name in METRICS:
            width = 4 if name == "StandardDeviation" else 1
            if name in names:
                values = tuple(self.metrics[k:k + width])
                out[name] = values if width == 4 else values[0]
            k += width
        return out


_LEVELS = ("P50", "P99", "P99.9")


class ErrorDistribution(ctypes.Structure):
    """--quantiles' distribution of one error measure (dumpcmp_resident.h)."""
    _fields_ = [("count", ctypes.c_int64), ("quantile", ctypes.c_double * 3),
                ("histogram", ctypes.c_int64 * 11)]


class PairQuantiles(ctypes.Structure):
    """--quantiles' distributions of one pair: |x - y| and the relative error."""
    _fields_ = [("absolute", ErrorDistribution), ("relative", ErrorDistribution)]

    def values(self):
        """{"AbsErrorP50": ..., "AbsErrorHistogram": [counts], "RelErrorP50": ...}, as
        dumpcmp.compare(quantiles=True) names them."""
        out = {}
        for measure, d in (("AbsError", self.absolute), ("RelError", self.relative)):
            for level, value in zip(_LEVELS, d.quantile):
                out[measure + level] = value
            out[measure + "Histogram"] = list(d.histogram)
        return out


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_library = None


def _lib():
    global _library
    if _library is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libdumpcmp_resident.so")
        if not os.path.exists(path):
            raise DeviceError(path + ": not built (this dumpcmp has no device backends)")
        lib = ctypes.CDLL(path)
        lib.dumpcmp_session_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int,
                                             ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p,
                                             ctypes.c_size_t]
        lib.dumpcmp_session_compare.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Pair),
                                                ctypes.c_int64, ctypes.c_int, ctypes.c_size_t,
                                                ctypes.POINTER(PairResult),
                                                ctypes.POINTER(PairQuantiles), ctypes.c_char_p,
                                                ctypes.c_size_t]
        lib.dumpcmp_session_close.argtypes = [ctypes.c_void_p]
        lib.dumpcmp_session_close.restype = None
        lib.dumpcmp_pair_result_size.restype = ctypes.c_size_t
        lib.dumpcmp_pair_quantiles_size.restype = ctypes.c_size_t
        if (lib.dumpcmp_pair_result_size() != ctypes.sizeof(PairResult)
                or lib.dumpcmp_pair_quantiles_size() != ctypes.sizeof(PairQuantiles)):
            raise DeviceError(path + ": its result structs differ from this module's")
        _library = lib
    return _library


class Session:
    """One backend's reducer, kept between calls (its buffers stay allocated): "cuda" for device
    addresses, "thrust-omp" (the GPU's code path on CPU threads) or "cpu" for host memory."""

    _handle = None

    def __init__(self, backend="cuda", device=0, threads=0):
        self.backend = backend
        lib = _lib()
        handle = ctypes.c_void_p()
        error = ctypes.create_string_buffer(1024)
        if lib.dumpcmp_session_open(backend.encode(), device, threads, ctypes.byref(handle), error,
                                    len(error)) != 0:
            raise DeviceError(error.value.decode())
        self._handle = handle
        self._close = lib.dumpcmp_session_close  # kept: module globals may go first at exit

    def close(self):
        if self._handle:
            self._close(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def reduce(self, pairs, with_kld=True, stream=0, quantiles=False):
        """pairs: [(x, y), ...] of DLPack tensors on this session's kind of memory. Returns one
        PairResult per pair, or with `quantiles` one (PairResult, PairQuantiles) per pair; the
        reduction runs on `stream` (a cudaStream_t as an int)."""
        views = [(_view(x, stream), _view(y, stream)) for x, y in pairs]
        expected = _KDL_CUDA if self.backend == "cuda" else _KDL_CPU
        c_pairs = (_Pair * len(views))()
        for i, (vx, vy) in enumerate(views):
            for v in (vx, vy):
                if v.device_type != expected and not (expected == _KDL_CPU
                                                      and v.device_type == _KDL_CUDA_HOST):
                    raise DeviceError("the %s backend reduces %s tensors (got DLPack device %d)"
                                      % (self.backend, "CUDA" if expected == _KDL_CUDA else "host",
                                         v.device_type))
            if vx.device_type == _KDL_CUDA and vx.device_id != vy.device_id:
                raise DeviceError("the tensors are on CUDA devices %d and %d"
                                  % (vx.device_id, vy.device_id))
            c_pairs[i].x, c_pairs[i].y = vx.tensor, vy.tensor
            # msaccucmp's ShapeType.Scalar: the dimensions add up to their number.
            c_pairs[i].scalar = int(sum(vx.shape) == len(vx.shape))
        results = (PairResult * len(views))()
        distributions = (PairQuantiles * len(views))() if quantiles else None
        error = ctypes.create_string_buffer(1024)
        if _lib().dumpcmp_session_compare(self._handle, c_pairs, len(views), int(with_kld), stream,
                                          results, distributions, error, len(error)) != 0:
            raise DeviceError(error.value.decode())
        del views  # the capsules lived through the call
        return list(zip(results, distributions)) if quantiles else list(results)


class _View:
    """A DLPack tensor's address, element count and dtype; holds the capsule that keeps it valid."""

    def __init__(self, capsule):
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype = ctypes.c_void_p
        get.argtypes = [ctypes.py_object, ctypes.c_char_p]
        self.capsule = capsule
        t = _DLTensor.from_address(get(capsule, b"dltensor"))
        if t.dtype.lanes != 1:
            raise DeviceError("dumpcmp compares tensors of one lane per element")
        shape = [t.shape[i] for i in range(t.ndim)]
        self.count = math.prod(shape)
        if t.strides and self.count > 1:
            expected = 1
            for i in reversed(range(t.ndim)):
                if shape[i] != 1 and t.strides[i] != expected:
                    raise DeviceError("the tensor is not contiguous in C order (.contiguous() it)")
                expected *= shape[i]
        self.shape = shape
        self.device_type = t.device.device_type
        self.device_id = t.device.device_id
        self.tensor = _Tensor((t.data or 0) + t.byte_offset, self.count, t.dtype.code,
                              t.dtype.bits)


def _view(value, stream):
    if not hasattr(value, "__dlpack__"):
        raise DeviceError("dumpcmp takes tensors with DLPack (torch, CuPy, JAX, numpy): got "
                          + type(value).__name__)
    device_type, _ = value.__dlpack_device__()
    if device_type == _KDL_CUDA:
        # DLPack spells the legacy default stream 1 (0 is ambiguous there); the producer orders
        # its pending work before that stream.
        return _View(value.__dlpack__(stream=stream if stream else 1))
    return _View(value.__dlpack__())


def current_stream(value):
    """The stream work on `value` is queued on now: torch's and CuPy's current stream, else the
    legacy default stream (0)."""
    module = type(value).__module__.split(".")[0]
    if module == "torch" and value.is_cuda:
        import torch
        return torch.cuda.current_stream(value.device).cuda_stream
    if module == "cupy":
        import cupy
        return cupy.cuda.get_current_stream().ptr
    return 0


_sessions = {}


def _session_for(value):
    device_type, device_id = value.__dlpack_device__()
    key = ("cuda", device_id) if device_type == _KDL_CUDA else ("cpu", 0)
    if key not in _sessions:
        _sessions[key] = Session(key[0], key[1])
    return _sessions[key]


def _selected(metrics):
    if metrics is None or metrics == "all":
        return METRICS
    items = metrics.split(",") if isinstance(metrics, str) else list(metrics)
    names = []
    for item in items:
        item = str(item).strip()
        name = METRICS[int(item)] if item.isdigit() and int(item) < len(METRICS) else item
        if name not in METRICS:
            raise ValueError("unknown metric %r (the names are %s, or 0-9)" % (item, METRICS))
        names.append(name)
    return tuple(names)


def _reduce(pairs, metrics, stream, quantiles):
    names = _selected(metrics)
    first = pairs[0][0]
    if stream is None:
        stream = current_stream(first)
    results = _session_for(first).reduce(pairs, "KullbackLeiblerDivergence" in names, stream,
                                         bool(quantiles))
    if not quantiles:
        return [r.metric_values(names) for r in results]
    return [dict(r.metric_values(names), **q.values()) for r, q in results]


def compare(my_output, ground_truth, metrics=None, stream=None, quantiles=False):
    """msaccucmp's metrics of two tensors of the same size on one device, element by element in
    C order: {metric name: value}, as dumpcmp.compare returns them. `stream` defaults to the
    tensors' current stream. `quantiles` adds --quantiles' values (dumpcmp.compare's keys),
    counted on the device for tensors of more than 65,536 elements."""
    return _reduce([(my_output, ground_truth)], metrics, stream, quantiles)[0]


def compare_many(runs, golden, metrics=None, stream=None, quantiles=False):
    """Each of `runs` against one `golden` kept on the device, in one reduction: a list of
    metric dicts in the order of `runs`."""
    return _reduce([(run, golden) for run in runs], metrics, stream, quantiles)


def consistency(tensors, against="first", metrics=None, stream=None, quantiles=False):
    """The same tensor from several ranks, which data-parallel training keeps identical:
    against="first" compares ranks 1.. with rank 0 (a list), against="all" every pair i < j
    (a dict keyed by (i, j)); one reduction either way."""
    if against == "first":
        return _reduce([(t, tensors[0]) for t in tensors[1:]], metrics, stream, quantiles)
    if against != "all":
        raise ValueError("against must be 'first' or 'all'")
    keys = [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors))]
    values = _reduce([(tensors[i], tensors[j]) for i, j in keys], metrics, stream, quantiles)
    return dict(zip(keys, values))
