# Mean |my - golden|, times the -a parameter "scale" (a string, as msaccucmp passes it).
import numpy as np
from algorithm_manager.algorithm_parameter import AlgorithmParameter
from cmp_utils import utils, utils_type


def compare(my_output_dump_data: any, ground_truth_dump_data: any, args: AlgorithmParameter) -> (str, str):
    if args.shape_type == utils_type.ShapeType.Scalar:
        return utils.format_value(0), "MeanDiff: scalar"
    scale = float(getattr(args, "scale", "1"))
    diff = np.abs(my_output_dump_data.astype(np.float64) - ground_truth_dump_data.astype(np.float64))
    return utils.format_value(np.mean(diff) * scale), ""
