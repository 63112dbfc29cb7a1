#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "probe/probe_steps.hpp"

namespace dumpcmp::cli {

// `dumpcmp compare -tp NPU -gp BENCH [-o OUT]`: msprobe's compare of PyTorch dump.json runs
// (docs/msprobe-compare.md), chosen by -tp/-gp in place of msaccucmp's -m/-g.
bool is_probe_compare(const std::vector<std::string>& args);

struct ProbeCommandOptions {
  ProbeStepsOptions run;         // run.compare: one compare's options
  CLI::Option* steps = nullptr;  // --steps: a whole run over the step directories, when given
  // --rank [--step]: msprobe's MindSpore graph-mode (kernel) compare of two dump roots, which is
  // compare_stats' (docs/statistics.md); comma lists
  CLI::Option* rank = nullptr;
  std::string ranks, graph_steps;
  // Where tensor mode's pairs are reduced (dumpcmp's own options; the default is the cpu)
  std::string device = "cpu";
  int threads = 0;
  uint64_t device_memory_mb = 0;
};

void setup_probe_compare(CLI::App& app, ProbeCommandOptions& options);
// Over MPI ranks a whole run (--steps) is shared by every rank; one compare runs on rank 0 alone.
int run_probe_compare_command(const ProbeCommandOptions& options, World& world);

}  // namespace dumpcmp::cli
