# Raises: its cell is NaN and the reason names the exception.
def compare(my_output_dump_data, ground_truth_dump_data, args):
    raise ValueError("boom")
