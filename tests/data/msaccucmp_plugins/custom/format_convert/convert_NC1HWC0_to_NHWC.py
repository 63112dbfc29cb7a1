# Returns a list, not an ndarray: msaccucmp refuses it.
def convert(shape_from, shape_to, array):
    return [1, 2]
