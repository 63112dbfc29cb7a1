"""A PyTorch run compared, as it runs, with an NPU run's msprobe dump of the same step
(docs/msprobe-live.md). Every submodule's forward is hooked under msprobe's L0 names
(Module.{path}.{Class}.forward.{n}); each tensor of its inputs, outputs and parameters is compared
where it lies (a CUDA tensor on its device, on the current stream) with the NPU dump's data file of
the same name, the moment the run produces it, and is never written. Closing writes the
compare_result_<timestamp>.csv that `msprobe compare` writes for the NPU dump against a dump of this
run at level L0 (its records as msprobe's dumper would write them, its tensors' metrics computed
here, bit for bit as dumpcmp's offline compare computes them).

    from dumpcmp.live import LiveCompare
    with LiveCompare("npu_dump/step0/rank0/dump.json", out="live_out").watch(model) as live:
        model(batch)
    live.files  # ["live_out/compare_result_<ts>.csv"]

Like dumpcmp.resident, it needs only ctypes, torch and libdumpcmp_resident.so, so any Python 3 with
torch loads it.
"""

import ctypes
import dataclasses
import json
import os
import sys
import threading

from . import resident


class _Live:
    """The C library's live functions, declared once."""

    lib = None

    @classmethod
    def get(cls):
        if cls.lib is None:
            lib = resident._lib()
            c = ctypes
            lib.dumpcmp_live_open.argtypes = [c.c_char_p, c.c_int32, c.POINTER(c.c_void_p),
                                              c.c_char_p, c.c_size_t, c.c_char_p, c.c_size_t]
            lib.dumpcmp_live_compare.argtypes = [c.c_void_p, c.c_void_p, c.c_char_p,
                                                 resident._Tensor, c.POINTER(c.c_int64),
                                                 c.c_int32, c.c_size_t, c.POINTER(c.c_int32),
                                                 c.c_char_p, c.c_size_t]
            lib.dumpcmp_live_write.argtypes = [c.c_void_p, c.c_char_p, c.c_char_p, c.c_int32,
                                               c.c_int32, c.c_char_p, c.c_char_p, c.c_size_t,
                                               c.c_char_p, c.c_size_t, c.c_char_p, c.c_size_t]
            lib.dumpcmp_live_close.argtypes = [c.c_void_p]
            lib.dumpcmp_live_close.restype = None
            cls.lib = lib
        return cls.lib


def _dlpack_code(dtype):
    """(DLPack type code, bits) of a torch dtype; (255, 0) for one dumpcmp does not compare."""
    import torch
    codes = {torch.float16: (2, 16), torch.float32: (2, 32), torch.float64: (2, 64),
             torch.bfloat16: (4, 16), torch.int8: (0, 8), torch.int16: (0, 16),
             torch.int32: (0, 32), torch.int64: (0, 64), torch.uint8: (1, 8), torch.bool: (6, 8),
             torch.complex64: (5, 64), torch.complex128: (5, 128)}
    optional = {"uint16": (1, 16), "uint32": (1, 32), "uint64": (1, 64),
                "float8_e4m3fn": (10, 8), "float8_e5m2": (12, 8)}  # DLPack 1.0's float8 codes
    codes.update({getattr(torch, name): code for name, code in optional.items()
                  if hasattr(torch, name)})
    return codes.get(dtype, (255, 0))


def _stats(t):
    """Max, Min, Mean, Norm of a detached tensor as msprobe's PyTorch dumper computes them
    (get_stat_info, its default precision), as Python values; None where it has none."""
    import torch
    none = (None, None, None, None)
    if t.is_meta or not t.numel() or not t.data_ptr():
        return none
    if "float8" in str(t.dtype) or "float4" in str(t.dtype):
        return none
    if torch.is_complex(t):  # the magnitudes, with numpy; no norm
        import numpy as np
        a = np.abs(t.cpu().numpy())
        return np.max(a).item(), np.min(a).item(), np.mean(a).item(), None
    if t.dtype == torch.bool:
        return torch.any(t).item(), torch.all(t).item(), None, None
    if not t.shape:
        v = t.clone().item()
        return v, v, v, v
    top, bottom = torch.max(t).item(), torch.min(t).item()
    if t.dtype != torch.float64 and t.is_floating_point():
        return top, bottom, torch.mean(t).item(), torch.norm(t).item()
    return top, bottom, None, None


def _crc32(t):
    """msprobe's md5 summary of a tensor: the CRC-32 of its bytes, contiguous, in host memory
    (zlib's, as 8 hex digits); none for a meta tensor."""
    import zlib
    if t.is_meta:
        return None
    t = t.detach().cpu().contiguous()
    size = t.numel() * t.element_size()
    data = (ctypes.c_ubyte * size).from_address(t.data_ptr()) if size else b""
    return "%08x" % zlib.crc32(memoryview(data))


def _dtensor_layout(tensor):
    """A DTensor's mesh and placements as msprobe's dumper records them (get_dtensor_info)."""
    layout = {}
    mesh = getattr(tensor, "device_mesh", None)
    if mesh is not None:
        layout["device_mesh"] = mesh.mesh.tolist()
    placements = []
    for p in getattr(tensor, "placements", ()):
        if p.is_shard() and isinstance(p.dim, int):
            placements.append({"Shard": {"dim": p.dim}})
        elif p.is_replicate():
            placements.append({"Replicate": {}})
        elif p.is_partial() and isinstance(getattr(p, "reduce_op", None), str):
            placements.append({"Partial": {"reduce_op": p.reduce_op}})
    layout["placements"] = placements
    return layout


def _has_old_backward_hook(module):
    """A module with a register_backward_hook hook, whose backward msprobe does not record."""
    return bool(getattr(module, "_backward_hooks", None)) and \
        getattr(module, "_is_full_backward_hook", None) is False


def _through_hook(setup, value):
    """`value` (a module's arguments or output) with its tensors that need gradients passed
    through a BackwardHook's setup_input_hook or setup_output_hook, the rest kept in place: how
    msprobe's dumper wraps the two (hook_wrapper.py), so the hooks see the same gradients."""
    import torch

    def needs_hook(item, not_leaf=False):
        if not isinstance(item, torch.Tensor) or not torch.is_grad_enabled() or \
                not item.requires_grad or "float8" in str(item.dtype):
            return False
        return item.grad_fn is not None if not_leaf else True

    def gather(item, found):
        if needs_hook(item):
            found.append(item)
        elif isinstance(item, (list, tuple)):
            for v in item:
                gather(v, found)
        elif isinstance(item, dict):
            for v in item.values():
                gather(v, found)
        return found

    def rebuild(item, hooked, not_leaf=False):
        if needs_hook(item, not_leaf):
            result = next(hooked)
            # A view's creation meta forbids in-place changes of the hooked output: reset.
            if getattr(result, "_base", None) is not None and \
                    torch._C._autograd._get_creation_meta(result) != \
                    torch._C._autograd.CreationMeta(0):
                torch._C._autograd._set_creation_meta(result, torch._C._autograd.CreationMeta(0))
            return result
        if isinstance(item, list):
            for i, v in enumerate(item):
                item[i] = rebuild(v, hooked, True)
            return item
        if isinstance(item, dict):
            for k, v in item.items():
                item[k] = rebuild(v, hooked, True)
            return item
        if isinstance(item, tuple):
            if hasattr(item, "_fields"):
                return type(item)(*[rebuild(v, hooked) for v in item])
            return type(item)([rebuild(v, hooked) for v in item])
        return item

    hooked = setup(tuple(gather(value, [])))
    try:
        return rebuild(value, iter(hooked))
    except Exception:  # msprobe keeps the value as it was
        return value


class LiveCompare:
    """msprobe's real-data compare of this run against an NPU run's dump.json, as this run runs.

    `npu_dump`: the NPU run's dump.json (or the directory holding it), dumped by msprobe at level L0
    or mix in tensor mode (statistics mode: the statistics are compared, no tensors; md5 mode:
    each tensor's CRC-32, as msprobe's md5 summary takes it); `out`: where the result is written
    when the compare is closed. `xlsx`, `pandas` and `numpy` are the CLI's
    --xlsx, --pandas and --numpy. `backend`: "cpu" or "thrust-omp" for tensors in host memory
    (default "cpu"); CUDA tensors are reduced by the cuda backend on their device. `data_mode`:
    msprobe's, "all" (forward and backward: each module's output and input gradients and its
    parameters' gradients, as msprobe's dumper records them) or "forward".
    One LiveCompare is one step: its calls are counted from 0, as msprobe counts them per step."""

    def __init__(self, npu_dump, out, xlsx=False, pandas=3, numpy=2, backend="cpu",
                 data_mode="all"):
        if data_mode not in ("all", "forward"):
            raise ValueError("data_mode is 'all' or 'forward', not %r" % (data_mode,))
        path = str(npu_dump)
        if os.path.isdir(path):
            path = os.path.join(path, "dump.json")
        self.out = str(out)
        self.files = []
        self.warnings = []
        self._xlsx, self._pandas, self._host_backend = bool(xlsx), int(pandas), backend
        lib = _Live.get()
        handle = ctypes.c_void_p()
        task = ctypes.create_string_buffer(64)
        error = ctypes.create_string_buffer(4096)
        if lib.dumpcmp_live_open(path.encode(), int(numpy), ctypes.byref(handle), task, len(task),
                                 error, len(error)) != 0:
            raise resident.DeviceError(error.value.decode())
        self._handle = handle
        self._close = lib.dumpcmp_live_close  # kept: module globals may go first at exit
        self.task = task.value.decode()
        self._records = {}  # the bench run's dump.json "data", in msprobe's order
        self._counts = {}   # calls of each module prefix (msprobe's module_count)
        self._hooks = []
        self._sessions = {}
        self._lock = threading.RLock()
        self._backward = data_mode == "all"
        self._backward_hooks = {}  # a forward call's name -> its torch BackwardHook
        self._grad_hooks = {}      # "{module}.{parameter}" -> its gradient hook's handle
        self._grad_calls = {}      # msprobe's grad_hook_call: module -> [calls, first parameter]

    # -- hooks --------------------------------------------------------------------------------

    def watch(self, models):
        """Hooks every submodule of `models` (a module, or a list of them: each one's names then
        begin with its index) as msprobe's register_module_hook does: the root itself, and
        FullyShardedDataParallel wrappers, are left out. Returns self."""
        import torch
        listed = isinstance(models, (list, tuple))
        is_verl = "verl" in sys.modules
        for index, model in enumerate(models if listed else [models]):
            named = list(model.named_modules())
            for position, (name, module) in enumerate(named):
                if module is model or not isinstance(module, torch.nn.Module) or \
                        isinstance(module, torch.jit.ScriptModule):
                    continue
                if type(module).__name__ == "FullyShardedDataParallel":
                    continue
                if is_verl and position in (1, len(named) - 1):  # msprobe skips these under verl
                    continue
                prefix = "Module.%s%s.%s." % ("%d." % index if listed else "", name,
                                              type(module).__name__)
                self._hooks.append(module.register_forward_pre_hook(
                    self._pre_hook(prefix), with_kwargs=True))
                self._hooks.append(module.register_forward_hook(
                    self._post_hook(prefix), with_kwargs=True, prepend=True))
        return self

    def _pre_hook(self, prefix):
        def hook(module, args, kwargs):
            with self._lock:
                index = self._counts[prefix] = self._counts.get(prefix, -1) + 1
                name = "%sforward.%d" % (prefix, index)
                self._records[name] = {
                    "input_args": self._analyze(args if isinstance(args, tuple) else (args,),
                                                name, "input"),
                    "input_kwargs": self._analyze(kwargs or {}, name, "kwargs")}
                if not self._backward or _has_old_backward_hook(module):
                    return None
                # msprobe's module backward: torch's BackwardHook over the inputs that need
                # gradients (and below, the outputs), its records made when autograd calls it.
                from torch.utils.hooks import BackwardHook
                backward = BackwardHook(
                    module, [self._backward_hook("%sbackward.%d" % (prefix, index))], [])
                self._backward_hooks[name] = backward
                return _through_hook(backward.setup_input_hook, args), kwargs
        return hook

    def _post_hook(self, prefix):
        def hook(module, args, kwargs, output):
            with self._lock:
                name = "%sforward.%d" % (prefix, self._counts.get(prefix))
                params = {k.split(".")[-1]: v for k, v in module.named_parameters(recurse=False)}
                self._update(name, {
                    "output": self._analyze(output if isinstance(output, tuple) else (output,),
                                            name, "output"),
                    "parameters": self._analyze(params, name, "parameters")})
                backward = self._backward_hooks.pop(name, None)
                if backward is None:
                    return None
                self._hook_gradients(prefix[:-1], params)
                return _through_hook(backward.setup_output_hook, output)
        return hook

    def _backward_hook(self, name):
        def hook(module, grad_input, grad_output):
            # msprobe exchanges them: a module's backward "input" is its outputs' gradients.
            with self._lock:
                self._update(name, {"input": self._analyze(tuple(grad_output), name, "input"),
                                    "output": self._analyze(tuple(grad_input), name, "output")})
        return hook

    def _hook_gradients(self, module_name, params):
        """msprobe's parameter gradient hooks: on each parameter's gradient accumulator, one per
        parameter (a later call's replaces an earlier's), reading .grad once it is accumulated."""
        for param_name, param in params.items():
            if not param.requires_grad:
                continue
            key = module_name + "." + param_name
            old = self._grad_hooks.pop(key, None)
            if old is not None:
                old.remove()
            grad_fn = param.expand_as(param).grad_fn
            if grad_fn is not None:
                accumulator = grad_fn.next_functions[0][0]
                self._grad_hooks[key] = accumulator.register_hook(
                    self._gradient_hook(module_name, param_name, param))

    def _gradient_hook(self, module_name, param_name, param):
        def hook(*_):
            with self._lock:
                # Counted by the module's first parameter to report, as msprobe counts.
                calls = self._grad_calls.setdefault(module_name, [-1, param_name])
                if calls[1] == param_name:
                    calls[0] += 1
                name = "%s.parameters_grad.%d" % (module_name, calls[0])
                grad = param.grad
                data_name = "%s.%s.pt" % (name, param_name)  # msprobe's name for it
                self._update(name, {param_name: [
                    None if grad is None else self._tensor(grad, name, data_name=data_name)]})
        return hook

    def _update(self, name, fields):
        """msprobe's writer: a module's record updated moves to the end."""
        record = self._records.pop(name, {})
        record.update(fields)
        self._records[name] = record

    # -- msprobe's records --------------------------------------------------------------------

    def _analyze(self, value, name, category, keys=None, depth=0):
        """msprobe's recursive_apply_transform with its PyTorch element analysis."""
        import numpy as np
        import torch
        keys = [] if keys is None else keys
        special = (bool, int, float, str, slice, type(Ellipsis), torch.device, torch.dtype,
                   torch.Size, torch.Tensor, torch.memory_format, np.generic, np.ndarray)
        if isinstance(value, special):
            return self._element(value, name, category, keys)
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            value = {f: getattr(value, f) for f in value._fields}
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            value = {f: getattr(value, f) for f in value.__dataclass_fields__}
        if isinstance(value, (list, tuple)):
            return [self._analyze(v, name, category, keys + [i], depth + 1)
                    for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {k: self._analyze(v, name, category, keys + [k], depth + 1)
                    for k, v in value.items()}
        return None

    def _element(self, value, name, category, keys):
        import numpy as np
        import torch
        if keys and keys[-1] == "device":
            if isinstance(value, (int, str)):
                return {"type": "torch.device", "value": value}
            if isinstance(value, torch.device):
                return {"type": "torch.device", "value": "%s:%s" % (value.type, value.index)}
            return {"type": "torch.device"}
        if keys and keys[-1] in ("dtype", "output_dtype"):
            return {"type": "torch.dtype", "value": str(value)}
        suffix = ".".join(str(k) for k in keys)
        if isinstance(value, slice):
            return {"type": "slice", "value": [None if v is None else int(v)
                                               for v in (value.start, value.stop, value.step)]}
        if isinstance(value, (bool, int, float, str)) or value is Ellipsis:
            return {"type": type(value).__name__, "value": "..." if value is Ellipsis else value}
        if isinstance(value, torch.Size):
            return {"type": "torch.Size", "value": [int(x) for x in value]}
        if isinstance(value, torch.memory_format):
            formats = {torch.contiguous_format: "contiguous_format",
                       torch.channels_last: "channels_last",
                       torch.channels_last_3d: "channels_last_3d",
                       torch.preserve_format: "preserve_format"}
            return {"type": "torch.memory_format", "format": formats.get(value)}
        if isinstance(value, torch.Tensor):
            return self._tensor(value, name, category, suffix)
        if isinstance(value, np.ndarray):
            return self._ndarray(value, name, category, suffix)
        if isinstance(value, np.generic):
            return {"type": type(value).__name__, "value": value.item()}
        return {}

    def _data_name(self, name, category, suffix):
        return "%s.%s%s.pt" % (name, category, "." + suffix if suffix else "")

    def _tensor(self, tensor, name, category=None, suffix=None, data_name=None):
        dtensor = type(tensor).__name__ == "DTensor" and hasattr(tensor, "to_local")
        t = (tensor.to_local() if dtensor else tensor).detach()  # a DTensor: its local shard
        top, bottom, mean, norm = _stats(t)
        record = {"type": "torch.distributed.tensor.DTensor" if dtensor else "torch.Tensor",
                  "dtype": str(tensor.dtype), "shape": list(t.shape), "Max": top, "Min": bottom,
                  "Mean": mean, "Norm": norm, "requires_grad": tensor.requires_grad}
        if dtensor:
            record.update(_dtensor_layout(tensor))
        if self.task == "md5":
            record["md5"] = _crc32(t)
        if self.task == "tensor" and not t.is_meta and t.untyped_storage().data_ptr() != 0:
            record["data_name"] = data_name or self._data_name(name, category, suffix)
            self._compare(record["data_name"], t)
        return record

    def _ndarray(self, array, name, category, suffix):
        import numpy as np
        record = {"type": "numpy.ndarray", "dtype": str(array.dtype), "shape": list(array.shape),
                  "Max": None, "Min": None, "Mean": None, "Norm": None}
        if array.size > 0 and array.dtype.kind not in ("U", "S"):
            try:
                record.update({"Max": np.max(array).item(), "Min": np.min(array).item(),
                               "Mean": np.mean(array).item(),
                               "Norm": np.linalg.norm(array).item()})
            except (TypeError, ValueError):
                pass
        if self.task == "tensor" and array.dtype.kind not in ("U", "S"):
            import torch
            record["data_name"] = self._data_name(name, category, suffix)
            self._compare(record["data_name"], torch.tensor(array))
        return record

    # -- the compare --------------------------------------------------------------------------

    def _session(self, t):
        key = ("cuda", t.device.index or 0) if t.is_cuda else (self._host_backend, 0)
        if key not in self._sessions:
            self._sessions[key] = resident.Session(key[0], key[1])
        return self._sessions[key]

    def _compare(self, data_name, t):
        import torch
        t = t.contiguous()
        if t.is_cuda and t.numel() == 1:
            t = t.cpu()  # a 0-d pair is settled on the host
        stream = torch.cuda.current_stream(t.device).cuda_stream if t.is_cuda else 0
        code, bits = _dlpack_code(t.dtype)
        tensor = resident._Tensor(t.data_ptr(), t.numel(), code, bits)
        shape = (ctypes.c_int64 * max(1, t.dim()))(*t.shape)
        compared = ctypes.c_int32()
        error = ctypes.create_string_buffer(4096)
        if _Live.get().dumpcmp_live_compare(self._handle, self._session(t)._handle,
                                            data_name.encode(), tensor, shape, t.dim(), stream,
                                            ctypes.byref(compared), error, len(error)) != 0:
            raise resident.DeviceError(error.value.decode())

    # -- the result ---------------------------------------------------------------------------

    def bench_dump(self):
        """The bench run's dump.json as msprobe's dumper would write it (no file was)."""
        task = "statistics" if self.task == "md5" else self.task  # md5: a statistics summary
        return {"task": task, "level": "L0", "framework": "pytorch", "dump_data_dir": None,
                "data": self._records}

    def close(self):
        """Removes the hooks and writes the result into `out`; returns the files written (the
        run's log last, when there were warnings, which self.warnings also holds)."""
        if self._handle is None:
            return self.files
        self._remove_hooks()
        lib = _Live.get()
        os.makedirs(self.out, exist_ok=True)
        text = json.dumps(self.bench_dump())
        written = ctypes.create_string_buffer(1 << 16)
        warnings = ctypes.create_string_buffer(1 << 20)
        error = ctypes.create_string_buffer(4096)
        command = "dumpcmp.live.LiveCompare (%s)" % " ".join(sys.argv)
        status = lib.dumpcmp_live_write(self._handle, text.encode(), self.out.encode(),
                                        int(self._xlsx), self._pandas, command.encode(), written,
                                        len(written), warnings, len(warnings), error, len(error))
        self._close(self._handle)
        self._handle = None
        if status != 0:
            raise resident.DeviceError(error.value.decode())
        self.files = written.value.decode().splitlines()
        self.warnings = warnings.value.decode().splitlines()
        return self.files

    def _remove_hooks(self):
        for hook in self._hooks + list(self._grad_hooks.values()):
            hook.remove()
        self._hooks, self._grad_hooks, self._backward_hooks = [], {}, {}

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.close()
        else:  # the run failed: no result under a final name
            self._remove_hooks()
            self._close(self._handle)
            self._handle = None

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            self._close(self._handle)
            self._handle = None
