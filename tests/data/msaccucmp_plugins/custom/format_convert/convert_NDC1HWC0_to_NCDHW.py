# Returns a 2-D array that cannot be cut to the original shape: convert keeps it whole and names it
# with the dump's own format.
import numpy as np


def convert(shape_from, shape_to, array):
    flat = np.asarray(array).reshape(-1)
    return np.stack([flat, flat])
