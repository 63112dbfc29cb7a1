# Named as a built-in algorithm: msaccucmp runs this one instead, for -alg all and index 0 too.
import os


def compare(my_output_dump_data, ground_truth_dump_data, args):
    return "custom-cos", "my " + os.path.basename(args.my_output_dump_file)
