#pragma once
// Derives each metric's printed cell (and its CompareFailReason message) from the accumulators,
// with msaccucmp's rules for zero norms, NaN, inf, empty, scalar and bool tensors.
#include <optional>
#include <string>

#include "dumpcmp/metrics/accumulator.hpp"
#include "dumpcmp/metrics/metric.hpp"

namespace dumpcmp {

// The accumulated facts about one compared tensor pair.
struct PairStats {
  bool both_bool = false;
  PairAccumulator pair;                 // valid unless both_bool
  std::optional<KldAccumulator> kld;    // present when KLD was selected and its pass ran
  BoolAccumulator boolean;              // valid when both_bool
};

// What the derivation needs besides the numbers.
struct PairContext {
  bool scalar_shape = false;  // msaccucmp's ShapeType.Scalar of the compared shape
  std::string my_file;        // named in the zero-data messages
  std::string golden_file;
};

struct MetricCell {
  std::string value;   // as printed in the CSV: "0.993999", "nan", "NaN", "1.0", "(2.500;1.118),..."
  std::string reason;  // empty, or the message this metric adds to CompareFailReason
};

MetricCell derive_metric(Metric m, const PairStats& stats, const PairContext& ctx);

// KLD's second pass is needed (and meaningful) only when both sides are free of NaN and inf.
bool kld_pass_possible(const PairAccumulator& pair);
KldScale kld_scale(const SideStats& side);

// '{:.6f}' as Python prints it: NaN is "nan" (never "-nan"), infinities "inf" / "-inf".
std::string format_fixed6(double v);

}  // namespace dumpcmp
