#pragma once
// msaccucmp's messages about metrics: the builtin algorithms' failures and numpy's exceptions
// in them, in its wording (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

// ---- Python and numpy exception texts msaccucmp passes on in its messages

// numpy's ValueError of max() over an empty array (MaxAbsoluteError, MaxRelativeError, KLD).
std::string empty_max_reduction();
// numpy's TypeError of subtracting bool arrays (RelativeEuclideanDistance on bools).
std::string bool_subtract();

// ---- Metrics (algorithm_manager and the builtin algorithms)

// algorithm_manager's wrapper around an exception the algorithm `metric` raises.
std::string compare_failed(std::string_view metric, const std::string& reason);
// CosineSimilarity when the data of `path` is all zero.
std::string cosine_all_zero(const std::string& path);
// CosineSimilarity's note on a scalar tensor (the value is 1).
std::string scalar_tensor();
// KullbackLeiblerDivergence when the ground truth of `path` holds a zero (the value is inf).
std::string kld_contains_zero(const std::string& path);
// algorithm_manager for an algorithm other than cosine and RED on two bool tensors.
std::string boolean_not_supported(std::string_view metric);

}  // namespace dumpcmp::msg
