#pragma once
// The fusion-rule compare path (-f, -q, -cf): plan_compare hands over to it when a rule file is
// given.
#include "compare/compare_engine.hpp"

namespace dumpcmp {

ComparePlan plan_fusion_compare(const CompareOptions& options, OpenedDumps* opened);

}  // namespace dumpcmp
