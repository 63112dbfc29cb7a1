# Raises: the conversion fails naming it.
def convert(shape_from, shape_to, array):
    raise ValueError("no FRACTAL_Z today: %s -> %s" % (shape_from, shape_to))
