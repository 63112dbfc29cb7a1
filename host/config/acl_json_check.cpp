// The rules of docs/formats.md §7, each problem reported with its JSON path.
#include <simdjson.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string_view>

#include "config/acl_json.hpp"
#include "core/text.hpp"

namespace dumpcmp {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

constexpr size_t kMaxPathLength = 512;
constexpr size_t kMaxStepParts = 100;
constexpr size_t kMaxBlacklist = 100;

bool one_of(std::string_view v, std::initializer_list<std::string_view> allowed) {
  return std::find(allowed.begin(), allowed.end(), v) != allowed.end();
}

std::string list(std::initializer_list<std::string_view> allowed) {
  std::string out;
  for (std::string_view a : allowed) out += (out.empty() ? "" : ", ") + std::string(a);
  return out;
}

bool digits(std::string_view s) {
  return !s.empty() && s.size() <= 18 &&
         s.find_first_not_of("0123456789") == std::string_view::npos;
}

class Checker {
 public:
  Checker(ConfigCheck& out, bool check_paths) : out_(out), check_paths_(check_paths) {}

  void dump(const object& d) {
    for (auto [key, value] : d) {
      static const std::set<std::string_view> kKnown = {
          "dump_path",        "dump_mode",  "dump_data",  "dump_stats",
          "dump_op_switch",   "dump_level", "dump_debug", "dump_scene",
          "dump_kernel_data", "dump_step",  "dump_list"};
      if (!kKnown.count(key)) {
        out_.notes.push_back("dump." + std::string(key) + ": not a dump option; it is ignored");
      }
      (void)value;
    }
    const std::string mode = text(d, "dump_mode", {"input", "output", "all"}, "output");
    const std::string data = text(d, "dump_data", {"tensor", "stats"}, "tensor");
    const std::string op_switch = text(d, "dump_op_switch", {"on", "off"}, "off");
    const std::string level = text(d, "dump_level", {"op", "kernel", "all"}, "all");
    const std::string debug = text(d, "dump_debug", {"on", "off"}, "off");
    const std::string scene = text(d, "dump_scene",
                                   {"lite_exception", "aic_err_brief_dump", "aic_err_norm_dump",
                                    "aic_err_detail_dump", "watcher"},
                                   "");
    kernel_data(d);
    stats(d, data);
    step(d);
    const bool exception = !scene.empty() && scene != "watcher";
    const bool watcher = scene == "watcher";
    if (op_switch == "on" && debug == "on") {
      problem("dump.dump_op_switch",
              "must not be \"on\" together with dump_debug \"on\" (single-op "
              "dump and overflow dump exclude each other)");
    }
    if (op_switch == "on" && !scene.empty()) {
      problem("dump.dump_op_switch", "must not be \"on\" with a dump_scene");
    }
    if (exception && (debug == "on" || has(d, "dump_list"))) {
      problem("dump.dump_scene", "\"" + scene +
                                     "\" is an exception dump and must be used alone: "
                                     "no dump_debug \"on\" and no dump_list");
    }
    if (watcher && mode != "output") {
      problem("dump.dump_mode", "must be \"output\" (or absent) in the watcher scene");
    }
    const size_t entries = dump_list(d, op_switch, level, debug, watcher);
    const bool dumps = entries > 0 || op_switch == "on" || debug == "on" || !scene.empty();
    if (!dumps)
      out_.notes.push_back(
          "dump: nothing will be dumped (no dump_list entry, dump_op_switch off, dump_debug off, "
          "no dump_scene)");
    if (dumps && !exception) dump_path(d);
  }

  void problem(std::string path, std::string rule) {
    out_.problems.push_back({std::move(path), std::move(rule)});
  }

 private:
  static bool has(const object& o, std::string_view key) {
    element e;
    return o[key].get(e) == simdjson::SUCCESS;
  }

  // A string option with an allowed set; returns its value (or the default when absent/invalid).
  std::string text(const object& o, std::string_view key,
                   std::initializer_list<std::string_view> allowed, std::string fallback) {
    element e;
    if (o[key].get(e) != simdjson::SUCCESS) return fallback;
    const std::string path = "dump." + std::string(key);
    std::string_view v;
    if (e.get(v) != simdjson::SUCCESS) {
      problem(path, "must be a string, one of: " + list(allowed));
      return fallback;
    }
    if (!one_of(v, allowed)) {
      problem(path, "\"" + std::string(v) + "\" is not allowed; one of: " + list(allowed));
      return fallback;
    }
    return std::string(v);
  }

  void kernel_data(const object& o) {
    element e;
    if (o["dump_kernel_data"].get(e) != simdjson::SUCCESS) return;
    std::string_view v;
    if (e.get(v) != simdjson::SUCCESS) return problem("dump.dump_kernel_data", "must be a string");
    for (const std::string& item : split_commas(v)) {
      if (!one_of(item, {"all", "printf", "tensor", "assert", "timestamp"})) {
        problem("dump.dump_kernel_data", "\"" + item +
                                             "\" is not allowed; a comma list of: all, printf, "
                                             "tensor, assert, timestamp");
      }
    }
  }

  void stats(const object& o, const std::string& data) {
    element e;
    if (o["dump_stats"].get(e) != simdjson::SUCCESS) return;
    if (data != "stats") problem("dump.dump_stats", "is only allowed with dump_data \"stats\"");
    array a;
    if (e.get(a) != simdjson::SUCCESS || a.size() == 0) {
      return problem("dump.dump_stats", "must be a non-empty list");
    }
    size_t k = 0;
    for (element item : a) {
      std::string_view v;
      const std::string path = "dump.dump_stats[" + std::to_string(k++) + "]";
      if (item.get(v) != simdjson::SUCCESS ||
          !one_of(v, {"Max", "Min", "Avg", "Nan", "Negative Inf", "Positive Inf", "L2norm"})) {
        problem(path, "must be one of: Max, Min, Avg, Nan, Negative Inf, Positive Inf, L2norm");
      }
    }
  }

  // "0|3-5|10": at most 100 parts, each N or N-M with N <= M.
  void step(const object& o) {
    element e;
    if (o["dump_step"].get(e) != simdjson::SUCCESS) return;
    std::string_view v;
    if (e.get(v) != simdjson::SUCCESS)
      return problem("dump.dump_step", "must be a string like \"0|3-5|10\"");
    std::vector<std::string_view> parts;
    size_t begin = 0;
    for (;;) {
      const size_t bar = v.find('|', begin);
      parts.push_back(
          v.substr(begin, bar == std::string_view::npos ? std::string_view::npos : bar - begin));
      if (bar == std::string_view::npos) break;
      begin = bar + 1;
    }
    if (parts.size() > kMaxStepParts) {
      problem("dump.dump_step", "has " + std::to_string(parts.size()) + " parts; at most 100");
    }
    for (std::string_view p : parts) {
      const size_t dash = p.find('-');
      bool ok;
      if (dash == std::string_view::npos) {
        ok = digits(p);
      } else {
        const std::string_view lo = p.substr(0, dash), hi = p.substr(dash + 1);
        ok = digits(lo) && digits(hi) &&
             std::stoull(std::string(lo)) <= std::stoull(std::string(hi));
      }
      if (!ok) {
        problem("dump.dump_step", "part \"" + std::string(p) +
                                      "\" must be a step N or a range N-M of digits with N <= M");
      }
    }
  }

  size_t dump_list(const object& o, const std::string& op_switch, const std::string& level,
                   const std::string& debug, bool watcher) {
    element e;
    if (o["dump_list"].get(e) != simdjson::SUCCESS) {
      if (watcher)
        problem("dump.dump_list", "is required in the watcher scene (with watcher_nodes)");
      return 0;
    }
    array entries;
    if (e.get(entries) != simdjson::SUCCESS) {
      problem("dump.dump_list", "must be a list of objects");
      return 0;
    }
    if (debug == "on" && entries.size() > 0) {
      problem("dump.dump_list",
              "must be empty with dump_debug \"on\" (the overflow dump takes the "
              "whole model)");
    }
    std::set<std::string> models;
    size_t k = 0;
    for (element item : entries) {
      const std::string path = "dump.dump_list[" + std::to_string(k++) + "]";
      object entry;
      if (item.get(entry) != simdjson::SUCCESS) {
        problem(path, "must be an object");
        continue;
      }
      std::string_view model;
      element m;
      const bool has_model = entry["model_name"].get(m) == simdjson::SUCCESS;
      if (has_model) {
        if (watcher) {
          problem(path + ".model_name", "is not allowed in the watcher scene");
        } else if (m.get(model) != simdjson::SUCCESS || model.empty()) {
          problem(path + ".model_name", "must be a non-empty string");
        } else if (!models.insert(std::string(model)).second) {
          problem(path + ".model_name",
                  "\"" + std::string(model) + "\" appears twice in dump_list");
        }
      }
      element layer;
      if (entry["layer"].get(layer) == simdjson::SUCCESS) {
        array layers;
        bool ok = layer.get(layers) == simdjson::SUCCESS && layers.size() > 0;
        // After a failed get, `layers` has no document: iterating it would read through null.
        if (ok) {
          for (element l : layers) {
            std::string_view name;
            ok = ok && l.get(name) == simdjson::SUCCESS && !name.empty();
          }
        }
        if (!ok) problem(path + ".layer", "must be a non-empty list of non-empty op names");
      }
      element nodes;
      const bool has_nodes = entry["watcher_nodes"].get(nodes) == simdjson::SUCCESS;
      if (watcher) {
        array list_nodes;
        if (!has_nodes || nodes.get(list_nodes) != simdjson::SUCCESS || list_nodes.size() == 0) {
          problem(path + ".watcher_nodes",
                  "is required and must be non-empty in the watcher scene");
        }
      } else if (has_nodes) {
        problem(path + ".watcher_nodes", "is only allowed in the watcher scene");
      }
      for (const char* key : {"optype_blacklist", "opname_blacklist"}) {
        element b;
        if (entry[key].get(b) != simdjson::SUCCESS) continue;
        const std::string bpath = path + "." + key;
        array items;
        if (b.get(items) != simdjson::SUCCESS) {
          problem(bpath, "must be a list of {\"name\", \"pos\"} objects");
          continue;
        }
        if (items.size() > kMaxBlacklist) problem(bpath, "has more than 100 entries");
        if (level != "op") problem(bpath, "needs dump_level \"op\"");
        size_t j = 0;
        for (element it : items) {
          object bo;
          std::string_view name;
          array pos;
          if (it.get(bo) != simdjson::SUCCESS || bo["name"].get(name) != simdjson::SUCCESS ||
              name.empty() || bo["pos"].get(pos) != simdjson::SUCCESS) {
            problem(bpath + "[" + std::to_string(j) + "]",
                    "must be {\"name\": non-empty string, \"pos\": [...]}");
          }
          ++j;
        }
      }
      element range;
      if (entry["opname_range"].get(range) == simdjson::SUCCESS) {
        const std::string rpath = path + ".opname_range";
        if (!has_model) problem(rpath, "needs model_name in the same entry");
        if (level != "op") problem(rpath, "needs dump_level \"op\"");
        array ranges;
        if (range.get(ranges) != simdjson::SUCCESS) {
          problem(rpath, "must be a list of {\"begin\", \"end\"} objects");
        } else {
          size_t j = 0;
          for (element r : ranges) {
            object ro;
            std::string_view b, en;
            if (r.get(ro) != simdjson::SUCCESS || ro["begin"].get(b) != simdjson::SUCCESS ||
                ro["end"].get(en) != simdjson::SUCCESS || b.empty() || en.empty()) {
              problem(rpath + "[" + std::to_string(j) + "]",
                      "must be {\"begin\": op name, \"end\": op name}");
            }
            ++j;
          }
        }
      }
      if (op_switch == "off" && !watcher && !has_model) {
        out_.notes.push_back(path + ": no model_name, so the entry applies to no model");
      }
    }
    return entries.size();
  }

  void dump_path(const object& o) {
    element e;
    std::string_view p;
    if (o["dump_path"].get(e) != simdjson::SUCCESS) {
      return problem("dump.dump_path",
                     "is required for a model dump, a single-op dump, an "
                     "overflow dump and the watcher");
    }
    if (e.get(p) != simdjson::SUCCESS || p.empty())
      return problem("dump.dump_path", "must be a non-empty string");
    if (p.size() > kMaxPathLength) {
      return problem("dump.dump_path",
                     "is " + std::to_string(p.size()) + " characters; at most 512");
    }
    const size_t colon = p.find(':');
    if (colon != std::string_view::npos) {  // ip:path
      const std::string_view ip = p.substr(0, colon);
      int parts = 0;
      bool ok = true;
      size_t begin = 0;
      for (;;) {
        const size_t dot = ip.find('.', begin);
        const std::string_view part =
            ip.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin);
        ok = ok && digits(part) && part.size() <= 3 && std::stoi(std::string(part)) <= 255;
        ++parts;
        if (dot == std::string_view::npos) break;
        begin = dot + 1;
      }
      if (!ok || parts != 4 || colon + 1 >= p.size()) {
        problem("dump.dump_path", "\"" + std::string(p) +
                                      "\" is neither a directory nor ip:path with an IPv4 address");
      }
      return;
    }
    if (!check_paths_) return;
    const std::string path(p);
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      problem("dump.dump_path", "\"" + path + "\" is not an existing directory");
    } else if (access(path.c_str(), R_OK | W_OK) != 0) {
      problem("dump.dump_path", "\"" + path + "\" must be readable and writable");
    }
  }

  ConfigCheck& out_;
  bool check_paths_;
};

}  // namespace

ConfigCheck check_acl_json(const std::string& text, bool check_paths) {
  ConfigCheck result;
  simdjson::dom::parser parser;
  element root;
  const auto error = parser.parse(text).get(root);
  if (error) {
    result.problems.push_back(
        {"$", std::string("not valid JSON: ") + simdjson::error_message(error)});
    return result;
  }
  Checker checker(result, check_paths);
  object top;
  if (root.get(top) != simdjson::SUCCESS) {
    checker.problem("$", "must be an object");
    return result;
  }
  element dump;
  if (top["dump"].get(dump) != simdjson::SUCCESS) {
    result.notes.push_back("$: no \"dump\" key, so nothing is dumped");
    return result;
  }
  object d;
  if (dump.get(d) != simdjson::SUCCESS) {
    checker.problem("dump", "must be an object");
    return result;
  }
  if (d.size() == 0) {
    result.notes.push_back("dump: empty, so nothing is dumped");
    return result;
  }
  checker.dump(d);
  return result;
}

}  // namespace dumpcmp
