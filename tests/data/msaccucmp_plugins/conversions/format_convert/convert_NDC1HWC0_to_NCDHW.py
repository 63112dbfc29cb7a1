# NDC1HWC0 to NCDHW with the padding channels kept (a 5-D cut), scaled by the size of shape_to.
import numpy as np


def convert(shape_from, shape_to, array):
    n, d, c1, h, w, c0 = shape_from
    ncdhw = np.asarray(array).reshape(shape_from).transpose(0, 2, 5, 1, 3, 4).reshape(
        n, c1 * c0, d, h, w)
    return ncdhw * len(shape_to)
