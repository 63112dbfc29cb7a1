# What the plug-in receives: the element count, the dtype and the -a parameter "tag".
def compare(my_output_dump_data, ground_truth_dump_data, args):
    return "%d/%s/%s" % (my_output_dump_data.size, my_output_dump_data.dtype, getattr(args, "tag", "-")), ""
