#pragma once
// A whole msprobe run in one command (docs/msprobe-compare.md §10): every step<N> directory of the
// NPU dump path against the bench's step of the same number, each compared as `msprobe compare
// -tp NPU/step<N> -gp BENCH/step<N> -o OUT/step<N>` compares it, then summary.csv and index.html
// over steps and ranks in OUT. A journal of finished steps lets --resume skip them.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "probe/probe_run.hpp"
#include "scale/world.hpp"

namespace dumpcmp {

struct ProbeStepsOptions {
  ProbeRunOptions compare;  // target_path and golden_path are the dump paths; output_dir is OUT
  std::string steps;        // which steps: "" for every one, else dump_step's syntax (0|3-5)
  bool resume = false;      // skip the steps an earlier run of the same command finished
};

// One pair of one step, as summary.csv lists it.
struct ProbeStepPair {
  std::string step;         // "3" for step3
  std::string pair;         // the rank or proc directory ("" when the step has none compared)
  std::string status;       // "compared", "no result", "no bench step" or "failed"
  std::string result_file;  // relative to OUT ("" when none)
  int64_t rows = 0, matched = 0, warnings = 0, errors = 0;
  std::string first_error;  // the NPU name of the first row whose Result is error
  std::string message;
  bool resumed = false;  // taken from an earlier run's journal
};

struct ProbeStepsResult {
  std::vector<ProbeStepPair> pairs;  // by step, then by pair
  std::vector<std::string> warnings;
  std::string summary, index, log;  // the files written ("" for a log without warnings)
};

// Throws Error(kInput) or Error(kUsage) for what stops the whole run (no step directory, a bad
// --steps, --resume over another run's journal); a step or a pair that fails does so alone.
// `step_done` is called after each step with its pairs (over ranks, in the order they finish).
ProbeStepsResult run_probe_steps(
    const ProbeStepsOptions& options,
    const std::function<void(const std::vector<ProbeStepPair>&)>& step_done = {});
// The same over the ranks of `world`, every rank calling it: rank 0 deals the steps and writes
// every file (its result has the run's pairs); the others compare their share and return nothing.
ProbeStepsResult run_probe_steps(
    const ProbeStepsOptions& options, World& world,
    const std::function<void(const std::vector<ProbeStepPair>&)>& step_done = {});

}  // namespace dumpcmp
