#pragma once
// One compare over every rank of a world: rank 0 plans and hands the plan to the others (as plan
// JSON lines, docs/plan.md), the rows are cut into byte-balanced contiguous shares, each rank
// reduces its share, and rank 0 writes every record into its sink in row order, so the result
// files are those of a one-process run for any number of ranks.
#include "backend/backend.hpp"
#include "compare/compare_engine.hpp"
#include "scale/world.hpp"

namespace dumpcmp {

// Rank 0 passes its plan (and the dumps its planner kept) and its sink, which it has not begun;
// the other ranks pass null. On rank 0 the summary of the whole run; elsewhere of the rank's share.
// A rank that fails sends rank 0 its error, which rank 0 throws naming that rank.
CompareSummary run_plan_on_world(World& world, const ComparePlan* plan,
                                 const CompareOptions& options, Backend& backend, RecordSink* sink,
                                 OpenedDumps* opened = nullptr);

}  // namespace dumpcmp
