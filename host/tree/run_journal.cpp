#include "tree/run_journal.hpp"

#include <simdjson.h>

#include <sstream>

#include "core/error.hpp"
#include "core/json_text.hpp"

namespace dumpcmp {
namespace {

std::string outcome_line(std::size_t k, const std::string& stem, const LeafOutcome& o) {
  std::ostringstream line;
  line << "{\"leaf\":" << k << ",\"stem\":" << json_string(stem)
       << ",\"status\":" << json_string(std::string(leaf_status_name(o.status)))
       << ",\"result\":" << json_string(o.result_file) << ",\"rows\":" << o.rows
       << ",\"compared\":" << o.compared << ",\"outside\":" << o.outside
       << ",\"not_compared\":" << o.not_compared << ",\"first_op\":" << json_string(o.first_op)
       << ",\"first_index\":" << o.first_index << ",\"code\":" << o.exit_code
       << ",\"message\":" << json_string(o.message) << ",\"bytes\":" << o.bytes;
  if (o.values) {
    // The charts of the run's index read these when the leaf is resumed.
    const LeafValues& v = *o.values;
    auto strings = [&line](const std::vector<std::string>& list) {
      line << '[';
      for (std::size_t i = 0; i < list.size(); ++i) line << (i ? "," : "") << json_string(list[i]);
      line << ']';
    };
    line << ",\"metrics\":";
    strings(v.metrics);
    line << ",\"tensors\":";
    strings(v.tensors);
    line << ",\"values\":" << json_string(encode_doubles(v.values));
  }
  line << "}";
  return line.str();
}

LeafStatus status_named(std::string_view name) {
  if (name == leaf_status_name(LeafStatus::kCompared)) return LeafStatus::kCompared;
  if (name == leaf_status_name(LeafStatus::kNoGolden)) return LeafStatus::kNoGolden;
  return LeafStatus::kFailed;
}

// The values a compared leaf's line keeps (a statistics leaf has none), or null when they do not
// fit.
std::shared_ptr<const LeafValues> journal_values(simdjson::dom::element e) {
  auto values = std::make_shared<LeafValues>();
  auto strings = [&e](const char* key, std::vector<std::string>& out) {
    simdjson::dom::array list;
    if (e[key].get(list) != simdjson::SUCCESS) return false;
    for (simdjson::dom::element item : list) {
      std::string_view text;
      if (item.get(text) != simdjson::SUCCESS) return false;
      out.emplace_back(text);
    }
    return true;
  };
  std::string_view encoded;
  if (!strings("metrics", values->metrics) || !strings("tensors", values->tensors) ||
      e["values"].get(encoded) != simdjson::SUCCESS || !decode_doubles(encoded, values->values) ||
      values->values.size() != values->metrics.size() * values->tensors.size()) {
    return nullptr;
  }
  return values;
}

}  // namespace

std::string run_key(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

RunJournal::RunJournal(const std::string& out_dir, const std::string& key, std::size_t leaves,
                       bool resume)
    : journal_(
          out_dir + "/" + kJournalName,
          "{\"journal\":1,\"run\":" + json_string(key) + ",\"leaves\":" + std::to_string(leaves) +
              "}",
          resume,
          [&](simdjson::dom::element e) {
            std::string_view run;
            uint64_t count = 0;
            if (e["run"].get(run) != simdjson::SUCCESS || run != key ||
                e["leaves"].get(count) != simdjson::SUCCESS || count != leaves) {
              throw Error(ExitCode::kInput, out_dir + "/" + kJournalName +
                                                ": the journal is of another run (other inputs "
                                                "or options); run without --resume to start again");
            }
            return true;
          },
          [this](simdjson::dom::element e) { load_line(e); }) {}

void RunJournal::load_line(simdjson::dom::element e) {
  uint64_t k = 0;
  std::string_view stem, status, result, first_op, message;
  int64_t rows = 0, compared = 0, outside = 0, not_compared = 0, first_index = 0, code = 0;
  uint64_t bytes = 0;
  if (e["leaf"].get(k) || e["stem"].get(stem) || e["status"].get(status) ||
      e["result"].get(result) || e["rows"].get(rows) || e["compared"].get(compared) ||
      e["outside"].get(outside) || e["not_compared"].get(not_compared) ||
      e["first_op"].get(first_op) || e["first_index"].get(first_index) || e["code"].get(code) ||
      e["message"].get(message) || e["bytes"].get(bytes)) {
    return;
  }
  LeafOutcome o;
  o.status = status_named(status);
  simdjson::dom::element kept;
  if (e["values"].get(kept) == simdjson::SUCCESS) {
    o.values = journal_values(e);
    if (!o.values) return;  // values that do not fit: the leaf is run again
  }
  o.result_file = std::string(result);
  o.rows = rows;
  o.compared = compared;
  o.outside = outside;
  o.not_compared = not_compared;
  o.first_op = std::string(first_op);
  o.first_index = first_index;
  o.exit_code = static_cast<int>(code);
  o.message = std::string(message);
  o.bytes = bytes;
  o.resumed = true;
  done_[static_cast<std::size_t>(k)] = {std::string(stem), std::move(o)};
}

const LeafOutcome* RunJournal::finished(std::size_t k, const std::string& stem) const {
  const auto it = done_.find(k);
  return it != done_.end() && it->second.first == stem ? &it->second.second : nullptr;
}

void RunJournal::record(std::size_t k, const std::string& stem, const LeafOutcome& outcome) {
  journal_.append(outcome_line(k, stem, outcome));
}

}  // namespace dumpcmp
