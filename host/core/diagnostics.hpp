#pragma once
// How the library tells the user about a problem with one file or tensor while the work goes on
// (the library never writes to the console; cli/ prints what it receives here).
#include <functional>
#include <string>

namespace dumpcmp {

enum class Severity { kWarning, kError };

// Receives each message once, in the order the problems were met; may be empty (messages dropped).
using DiagnosticSink = std::function<void(Severity, const std::string&)>;

}  // namespace dumpcmp
