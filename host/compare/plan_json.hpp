#pragma once
// A ComparePlan as JSON lines (docs/plan.md): a header line, then one line per file, per layout map
// and per row, so a plan can be read by people and tools, split, and run later (compare --plan).
#include <iosfwd>
#include <string>

#include "compare/compare_plan.hpp"

namespace dumpcmp {

void write_plan_jsonl(const ComparePlan& plan, std::ostream& out);

// Throws Error(kInput) naming the file and line of the first problem.
ComparePlan read_plan_jsonl(const std::string& path);
// The same from a stream; `path` names it in messages.
ComparePlan read_plan_jsonl(std::istream& in, const std::string& path);

}  // namespace dumpcmp
