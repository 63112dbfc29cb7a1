#pragma once
// What a backend hands back for one tensor pair: the first pass's accumulators and, when KLD was
// asked for and the data allows it, the second pass's. Every backend decides the second pass with
// the same two functions below.
#include <optional>

#include "math/accumulator.hpp"

namespace dumpcmp {

struct PairStats {
  bool both_bool = false;
  PairAccumulator pair;               // valid unless both_bool
  std::optional<KldAccumulator> kld;  // present when KLD was selected and its pass ran
  BoolAccumulator boolean;            // valid when both_bool
};

inline bool has_nonfinite(const SideStats& s) { return s.nan + s.pos_inf + s.neg_inf > 0; }

// KLD's second pass is needed (and meaningful) only when both sides are free of NaN and inf.
inline bool kld_pass_possible(const PairAccumulator& pair) {
  return pair.n > 0 && !has_nonfinite(pair.x) && !has_nonfinite(pair.y);
}

// The second pass scales each side by the first pass's min and range.
inline KldScale kld_scale(const SideStats& side) { return {side.min, side.max - side.min}; }

}  // namespace dumpcmp
