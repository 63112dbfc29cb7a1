# Replaces the built-in converter: the shape msaccucmp passes and the array's dtype and shape are
# visible in the result (a 2 x N array: the flat input, then it doubled).
import numpy as np


def convert(shape_from, shape_to, array):
    flat = np.asarray(array).reshape(-1)
    return np.stack([flat, flat * 2]).astype(flat.dtype)
