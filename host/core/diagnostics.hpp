#pragma once
// How the library tells the user about a problem with one file or tensor while the work goes on
// (the library never writes to the console; cli/ prints what it receives here).
#include <functional>
#include <string>
#include <string_view>

namespace dumpcmp {

enum class Severity { kWarning, kError };

// A problem with one input file or directory entry, met while planning: the run goes on without it
// (its row fails), and the user is told which file and why (docs/reliability.md).
enum class ProblemKind {
  kUnreadable,  // the file cannot be opened or read
  kBadDump,     // not a dump this tool can parse: header, lengths, truncation
  kBadTensor,   // a tensor of the file: dtype, shape, payload size
  kSkipped,     // a directory entry that is not a dump (stray file, subdirectory, unmapped name)
  kBadRule,     // a fusion or quantization rule that names what is not there
};
inline constexpr int kProblemKinds = 5;
std::string_view problem_kind_name(ProblemKind kind);  // "unreadable file", "bad dump file", ...

struct InputProblem {
  ProblemKind kind = ProblemKind::kBadDump;
  std::string text;  // "FILE: problem"
};

// Receives each message once, in the order the problems were met; may be empty (messages dropped).
using DiagnosticSink = std::function<void(Severity, const std::string&)>;

}  // namespace dumpcmp
