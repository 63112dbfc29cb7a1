# dumpcmp's plug-in worker: runs msaccucmp's custom algorithm files (DIR/algorithm/alg_<Name>.py,
# each with compare(my_output, ground_truth, args) -> (result, message) strings) and custom format
# conversions (DIR/format_convert/convert_{FROM}_to_{TO}.py with convert(shape_from, shape_to, array)).
# Started by host/plugin/python_worker.cpp as `python3 -c <this> SHM_FD CUSTOM_DIR NAME...`.
# Requests and replies are one JSON line each on stdin / the original stdout; the tensors are
# float32 (or, for bool pairs, bool) arrays in the shared memory SHM_FD (x at 0, y after it), viewed
# by numpy without a copy. The plug-ins import msaccucmp's helper modules; the few names they use
# are provided here.
import enum
import importlib
import json
import logging
import mmap
import os
import sys
import types

protocol = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)  # what plug-ins print goes to stderr, never into the protocol


pending_warnings = []  # sent with the next reply: dumpcmp reports them with its own


def send(message):
    message["warnings"] = pending_warnings[:]
    pending_warnings.clear()
    protocol.write(json.dumps(message) + "\n")
    protocol.flush()


def warn(message):
    pending_warnings.append(message)


class ShapeType(enum.Enum):
    Scalar = 0
    Vector = 1
    Matrix = 2
    Tensor = 3


class AlgorithmParameter:
    def get(self):
        return self.__dict__

    def get_dict(self):
        return self.__dict__


class CompareError(Exception):
    MSACCUCMP_NONE_ERROR = 0

    def __init__(self, code, message=""):
        super().__init__(code)  # as msaccucmp's: str() of it is the code
        self.code = code
        self.message = message


def install_helper_modules(np):
    """The parts of msaccucmp's packages that algorithm plug-ins import."""

    class ConstManager:
        NAN = "NaN"
        FLOAT_EPSILON = np.finfo(float).eps
        COMPARE_FUNC_NAME = "compare"
        BUILTIN = "builtin"
        CUSTOM = "custom"

    def module(name, **attributes):
        m = sys.modules.get(name) or types.ModuleType(name)
        m.__dict__.update(attributes)
        if "." not in name:
            m.__path__ = []  # a package, so its submodules import
        sys.modules[name] = m
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, m)
        return m

    logging.basicConfig(format="%(asctime)s (" + str(os.getpid()) + ") - [%(levelname)s] %(message)s",
                        datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO, stream=sys.stderr)
    module("algorithm_manager")
    module("algorithm_manager.algorithm_parameter", AlgorithmParameter=AlgorithmParameter)
    module("cmp_utils")
    module("cmp_utils.constant", __path__=[])
    module("cmp_utils.constant.const_manager", ConstManager=ConstManager)
    module("cmp_utils.constant.compare_error", CompareError=CompareError)
    module("cmp_utils.utils_type", ShapeType=ShapeType)
    module("cmp_utils.utils", format_value=lambda value: "{:.6f}".format(value),
           get_shape_type=lambda dims: ShapeType.Scalar if sum(dims) == len(dims) else ShapeType.Tensor)
    module("cmp_utils.log", print_error_log=logging.error, print_warn_log=logging.warning,
           print_info_log=logging.info)


def load_algorithm(custom_dir, name):
    """The plug-in's compare function, or None with msaccucmp's warning."""
    path = os.path.join(custom_dir, "algorithm", "alg_%s.py" % name)
    try:
        algorithm = importlib.import_module("algorithm.alg_%s" % name)
    except Exception as ex:  # msaccucmp stops here; one broken plug-in loses only its column
        warn("[Custom] %s cannot be imported: %s: %s" % (path, type(ex).__name__, ex))
        return None
    function = getattr(algorithm, "compare", None)
    if function is None:
        warn("[Custom] The file '%s' has no attribute 'compare'. Please check the file." % algorithm.__file__)
        return None
    if not callable(function):
        warn("[Custom] The 'compare' in %s is not function. Please check the file." % algorithm.__file__)
        return None
    count = getattr(getattr(function, "__code__", None), "co_argcount", -1)
    if count != 3:
        warn("[Custom] The argument count (%d) of 'compare' in %s is not 3. Please check the file."
             % (count, algorithm.__file__))
        return None
    return function


def call(name, function, x, y, args):
    try:
        result, message = function(x, y, args)
        for value in (result, message):
            if not isinstance(value, str):
                raise CompareError("compare", "The return value (%s) of 'compare' in '%s' is not string. "
                                   "Please check the return value." % (value, name))
        return [result, message]
    except Exception as ex:
        message = "Failed to execute 'compare' in '%s'. %s" % (name, str(ex))
        warn(message)
        return ["NaN", message]


def convert_request(np, shared, request):
    """A custom format conversion (DIR/format_convert/<module>.py) of the array in shared memory,
    saved with np.save where dumpcmp asks; returns the saved shape or msaccucmp's error."""
    module_name = request["module"]
    try:
        module = importlib.import_module("format_convert." + module_name)
    except Exception as ex:
        return {"unusable": "[Custom] %s cannot be imported: %s: %s" % (module_name, type(ex).__name__, ex)}
    function = getattr(module, "convert", None)
    if function is None:
        return {"unusable": "[Custom] The file '%s' has no attribute 'convert'. Please check the file."
                % module.__file__}
    if not callable(function):
        return {"unusable": "[Custom] The 'convert' in %s is not function. Please check the file." % module.__file__}
    count = getattr(getattr(function, "__code__", None), "co_argcount", -1)
    expected = 4 if "to_FRACTAL_Z" in module.__name__ else 3
    if count != expected:
        return {"unusable": "[Custom] The argument count (%d) of 'convert' in %s is not %d. Please check the "
                "file." % (count, module.__file__, expected)}
    data = np.frombuffer(shared, dtype=np.dtype(request["dtype"]), count=request["count"], offset=0)
    try:
        if request.get("group", 1) < 2:
            result = function(request["shape_from"], request["shape_to"], data)
        else:
            result = function(request["shape_from"], request["shape_to"], data, request["group"])
    except Exception as err:
        return {"error": "Failed to execute 'convert' in '%s'. %s" % (module_name, str(err))}
    finally:
        del data
    if not isinstance(result, np.ndarray):
        return {"error": "The return value of 'convert' in '%s' is not numpy.ndarray. Please check the "
                "return value." % module_name}
    sliced = True
    if request.get("slice_to"):
        try:
            result = slice_to(np, result, request["slice_to"])
        except ValueError:
            sliced = False  # msaccucmp keeps the converted array, named with the dump's own format
    with open(request["out"], "wb") as out:
        np.save(out, result)
    return {"shape": [int(d) for d in result.shape], "sliced": sliced}


def slice_to(np, array, shape):
    """The converted array cut to `shape` (the original shape) as msaccucmp's convert cuts it: a
    leading block when some dimension is larger; ValueError when a dimension is smaller, or when an
    array of lower rank does not have the shape's dimensions (ones aside)."""
    if array.ndim < len(shape):
        mine = [d for d in array.shape if d != 1]
        theirs = [d for d in shape if d != 1]
        if (mine or theirs) and mine != theirs:
            raise ValueError("the shapes differ")
        return array
    padded = list(array.shape) + [1] * (4 - array.ndim)
    target = list(shape) + [1] * (len(padded) - len(shape))
    ones = sum(1 for d in array.shape if d == 1)
    if int(np.prod(shape)) == array.size and ones in (array.ndim, array.ndim - 1):
        return array
    cut = False
    for mine, theirs in zip(padded, target):
        if mine < theirs:
            raise ValueError("a dimension is smaller than the shape's")
        if mine > theirs:
            cut = True
            break
    if not cut:
        return array
    array = array.reshape(padded)
    if len(padded) in (4, 5):
        array = array[tuple(slice(0, d) for d in target)]
    return array


def main():
    shm_fd, custom_dir, names = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    try:
        import numpy as np
    except Exception as ex:
        send({"error": "numpy cannot be imported by %s: %s" % (sys.executable, ex)})
        return
    install_helper_modules(np)
    sys.path.append(custom_dir)
    functions = {}
    for name in names:
        function = load_algorithm(custom_dir, name)
        if function is not None:
            functions[name] = function
    send({"loaded": [name for name in names if name in functions]})
    shared, shared_size = None, 0
    for line in sys.stdin:
        request = json.loads(line)
        if request["size"] != shared_size:
            shared, shared_size = mmap.mmap(shm_fd, request["size"]), request["size"]
        if request.get("kind") == "convert":
            send(convert_request(np, shared, request))
            continue
        n = request["count"]
        dtype = np.bool_ if request["dtype"] == "bool" else np.float32
        x = np.frombuffer(shared, dtype=dtype, count=n, offset=0)
        y = np.frombuffer(shared, dtype=dtype, count=n, offset=request["y_offset"])
        base = dict(request["args"])
        base["shape_type"] = ShapeType(base["shape_type"])
        replies = []
        for name in request["algorithms"]:
            args = AlgorithmParameter()
            args.__dict__ = dict(request["params"].get(name, {}), **base)
            replies.append(call(name, functions[name], x, y, args))
        del x, y  # the mapping may be replaced by the next request
        send({"cells": replies})


main()
