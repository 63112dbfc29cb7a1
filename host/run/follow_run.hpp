#pragma once
// compare --follow's watch, for any caller: the NPU directory is watched while the device run
// writes it, and each dump is compared as soon as it is complete (its size has stopped changing
// and it parses), its rows handed to a live sink. Watching ends when the caller stops it, after
// an idle time without a new dump, or once a given op is compared; the caller then compares the
// dumps that were complete into the result files. Silent.
#include <functional>
#include <set>
#include <string>

#include "backend/backend.hpp"
#include "compare/compare_engine.hpp"
#include "report/record.hpp"

namespace dumpcmp {

struct FollowRequest {
  double idle_seconds = 60;  // stop after this long without a new complete dump (0: never)
  std::string until_op;      // stop once this op's dump is compared
};

enum class FollowEnd { kStopped, kOpReached, kIdle };

struct FollowResult {
  std::set<std::string> complete;  // the dump files that were complete, as the inventory names them
  FollowEnd end = FollowEnd::kIdle;
};

// Throws Error(kUsage) when `dir` is a file: --follow watches a directory (which may not exist
// yet).
void require_followable(const std::string& dir);

// Watches options.my_path (it may not exist yet). Each batch of complete dumps is compared with
// `options` (metrics, verdict rules) on `backend` into `live`: begin, its records, commit.
// `stopped` is asked between looks at the directory. Throws as require_followable does.
FollowResult follow_dumps(const CompareOptions& options, const FollowRequest& request,
                          Backend& backend, RecordSink& live, const std::function<bool()>& stopped);

}  // namespace dumpcmp
