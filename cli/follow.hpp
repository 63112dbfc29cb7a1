#pragma once
// compare --follow: the NPU directory is watched while the device run writes it; each dump is
// compared as soon as it is complete (its size has stopped changing and it parses), its rows'
// verdicts are printed as they come, and the first divergent op the moment it shows. Watching
// ends on SIGINT/SIGTERM, after --idle seconds without a new dump, or once --until's op is
// compared; the caller then writes the result files for the dumps that were complete.
#include <set>
#include <string>

#include "backend/backend.hpp"
#include "compare/compare_engine.hpp"

namespace dumpcmp::cli {

struct FollowOptions {
  double idle_seconds = 60;  // stop after this long without a new complete dump (0: never)
  std::string until_op;      // stop once this op's dump is compared
  bool quiet = false;
};

// Watches options.my_path; returns the dump files that were complete (their paths as the
// inventory names them). The live rows use `options` (metrics, verdict rules) and `backend`.
std::set<std::string> follow_dumps(const CompareOptions& options, const FollowOptions& follow,
                                   Backend& backend);

}  // namespace dumpcmp::cli
