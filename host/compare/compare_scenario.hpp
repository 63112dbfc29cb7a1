#pragma once
// Which compare a pair of dump directories and rule files asks for: msaccucmp's scenario matrix
// (docs/formats.md §8, dump.py CompareData.check_arguments_valid), with its messages.
#include "compare/compare_engine.hpp"
#include "io/inventory.hpp"

namespace dumpcmp {

enum class CompareScenario {
  kNpuVsNpu,         // offline vs offline, no rule: pairing by op name
  kFusedVsUnfused,   // offline vs offline with -f and -cf
  kOfflineVsGolden,  // offline vs .npy/.pb/.quant golden through -f (and -q)
  kQuantVsOrigin,    // quantized original (.quant / quant .npy) vs original through -q
};

// Throws Error(kUsage) with msaccucmp's message for a combination it rejects.
CompareScenario check_compare_scenario(const Inventory& left, const Inventory& right,
                                       const CompareOptions& options);

}  // namespace dumpcmp
