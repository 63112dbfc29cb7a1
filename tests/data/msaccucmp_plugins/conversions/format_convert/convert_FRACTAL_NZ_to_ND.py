# Two arguments where msaccucmp wants three: it warns and converts with its built-in converter.
def convert(shape_from, array):
    return array
