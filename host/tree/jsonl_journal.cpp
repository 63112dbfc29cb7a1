#include "tree/jsonl_journal.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/error.hpp"

namespace dumpcmp {
namespace {

// Whether `path` holds a journal `same_run` accepts, each later complete line handed to `entry`.
bool load(const std::string& path, const std::function<bool(simdjson::dom::element)>& same_run,
          const std::function<void(simdjson::dom::element)>& entry) {
  if (::access(path.c_str(), F_OK) != 0) return false;
  std::ifstream in(path);
  if (!in) throw Error(ExitCode::kInput, path + ": cannot read the run journal");
  simdjson::dom::parser parser;
  std::string line;
  bool header = false;
  while (std::getline(in, line)) {
    simdjson::dom::element e;
    if (parser.parse(line).get(e) != simdjson::SUCCESS) continue;  // a torn last line
    if (!header) {
      if (!same_run(e)) return false;
      header = true;
    } else {
      entry(e);
    }
  }
  return header;
}

}  // namespace

JsonlJournal::JsonlJournal(std::string path, const std::string& header, bool resume,
                           const std::function<bool(simdjson::dom::element)>& same_run,
                           const std::function<void(simdjson::dom::element)>& entry)
    : path_(std::move(path)) {
  // A run killed before its journal's header was written has nothing to resume: it starts afresh.
  const bool reopen = resume && load(path_, same_run, entry);
  file_ = std::fopen(path_.c_str(), reopen ? "a" : "w");
  if (file_ == nullptr) {
    throw Error(ExitCode::kInput,
                path_ + ": cannot write the run journal (" + std::strerror(errno) + ")");
  }
  if (!reopen) append(header);
}

JsonlJournal::~JsonlJournal() {
  if (file_ != nullptr) std::fclose(file_);
}

void JsonlJournal::append(const std::string& line) {
  // A kill before this completes leaves a torn line, which a resumed run skips.
  const std::string text = line + "\n";
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0 ||
      ::fsync(fileno(file_)) != 0) {
    throw Error(ExitCode::kInput,
                path_ + ": cannot write the run journal (" + std::strerror(errno) + ")");
  }
}

}  // namespace dumpcmp
