# Replaces the built-in converter: NC1HWC0 to NCHW with the padding channels kept (so convert cuts
# the result to the original shape), and the values doubled to tell it from the built-in one.
import numpy as np


def convert(shape_from, shape_to, array):
    n, c1, h, w, c0 = shape_from
    nchw = np.asarray(array).reshape(shape_from).transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)
    return nchw * 2
