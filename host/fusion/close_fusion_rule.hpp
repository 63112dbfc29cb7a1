#pragma once
// `-cf`: the rule of the same model built with fusion switched off, for comparing a fused NPU dump
// with an unfused one (msaccucmp's merge_close_and_open_fusion_rule, fusion_rule_parser.py).
#include "fusion/fusion_rule.hpp"

namespace dumpcmp {

// Keeps the fused (open) rule's groups and ids; each op's original names and output origins are
// renamed to the unfused op that holds them, so the unfused dump is the ground truth. As in
// msaccucmp: groups are walked from the last op name backwards; an op whose first original name
// (or the unfused op it maps to) was already taken is dropped; only one op name per group stays
// findable by name; the merged rule has no input nodes.
FusionRule merge_close_fusion_rule(const FusionRule& open, const FusionRule& close);

}  // namespace dumpcmp
