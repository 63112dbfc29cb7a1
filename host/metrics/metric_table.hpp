#pragma once
// Derives each metric's value (and its CompareFailReason message) from the accumulators, with
// msaccucmp's rules for zero norms, NaN, inf, empty, scalar and bool tensors. Values stay numbers
// here; only the result writers turn them into text (report/result_table).
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "math/pair_stats.hpp"
#include "metrics/metric.hpp"

namespace dumpcmp {

// What the derivation needs besides the numbers.
struct PairContext {
  bool scalar_shape = false;  // msaccucmp's ShapeType.Scalar of the compared shape
  std::string my_file;        // named in the zero-data messages
  std::string golden_file;
};

// How a metric cell reads: a computed number (NaN and inf included: printed "nan", "inf"),
// msaccucmp's "not computed" marker (printed "NaN"), or its literal "1.0" for two all-zero tensors.
enum class CellStatus : uint8_t { kValue, kNotComputed, kLiteralOne };

struct MetricCell {
  CellStatus status = CellStatus::kNotComputed;
  double value = NAN;  // kValue: the computed double
  // StandardDeviation only: NPU mean, NPU std, golden mean, golden std (NaN where numpy's is).
  std::array<double, 4> parts = {NAN, NAN, NAN, NAN};
  std::string reason;  // empty, or the message this metric adds to CompareFailReason

  bool computed() const { return status != CellStatus::kNotComputed; }
  // The value as a number: 1.0 for the literal, NaN when not computed.
  double number() const {
    return status == CellStatus::kLiteralOne ? 1.0 : (status == CellStatus::kValue ? value : NAN);
  }
};

MetricCell derive_metric(Metric m, const PairStats& stats, const PairContext& ctx);

}  // namespace dumpcmp
