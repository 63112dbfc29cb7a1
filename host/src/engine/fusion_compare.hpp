#pragma once
// The fusion-rule compare path (-f, -q): run_compare hands over to it when a rule file is given.
#include "dumpcmp/engine/compare_engine.hpp"

namespace dumpcmp {

CompareSummary run_fusion_compare(const CompareOptions& options, Backend& backend,
                                  RecordSink& writer);

}  // namespace dumpcmp
