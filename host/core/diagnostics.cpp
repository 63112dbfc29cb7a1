#include "core/diagnostics.hpp"

namespace dumpcmp {

std::string_view problem_kind_name(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::kUnreadable:
      return "unreadable file";
    case ProblemKind::kBadDump:
      return "bad dump file";
    case ProblemKind::kBadTensor:
      return "bad tensor";
    case ProblemKind::kBadRule:
      return "bad rule file";
    case ProblemKind::kSkipped:
      break;
  }
  return "skipped entry";
}

}  // namespace dumpcmp
