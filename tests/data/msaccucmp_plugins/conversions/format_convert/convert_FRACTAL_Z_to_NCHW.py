# A flat result: lower in rank than the ground truth, and not of its dims.
import numpy as np


def convert(shape_from, shape_to, array):
    return np.asarray(array).reshape(-1)[:int(np.prod(shape_to))]
