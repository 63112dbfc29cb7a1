#pragma once
// The reports of a whole msprobe run (--steps): summary.csv, one line per step and pair, and
// index.html, a pairs x steps matrix coloured by msprobe's verdicts, each cell linking its result.
#include <string>
#include <vector>

#include "probe/probe_steps.hpp"

namespace dumpcmp {

// Written atomically; throws Error(kInput) naming the file when it cannot be written.
void write_probe_steps_summary(const std::string& path, const std::vector<ProbeStepPair>& pairs);
void write_probe_steps_index(const std::string& path, const std::string& npu_root,
                             const std::string& bench_root,
                             const std::vector<ProbeStepPair>& pairs);

}  // namespace dumpcmp
