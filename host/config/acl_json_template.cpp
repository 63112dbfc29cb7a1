// Starter acl.json files for `dumpcmp config new`, one per kind of dump; each passes the check.
#include "config/acl_json.hpp"

namespace dumpcmp {

bool parse_config_kind(const std::string& text, ConfigKind& kind) {
  if (text == "model")
    kind = ConfigKind::kModel;
  else if (text == "single-op")
    kind = ConfigKind::kSingleOp;
  else if (text == "overflow")
    kind = ConfigKind::kOverflow;
  else if (text == "exception")
    kind = ConfigKind::kException;
  else if (text == "watcher")
    kind = ConfigKind::kWatcher;
  else
    return false;
  return true;
}

std::string starter_acl_json(ConfigKind kind, const std::string& dump_path,
                             const std::string& model_name) {
  const std::string path = "        \"dump_path\": \"" + dump_path + "\",\n";
  switch (kind) {
    case ConfigKind::kModel:
      return "{\n    \"dump\": {\n" + path +
             "        \"dump_mode\": \"all\",\n"
             "        \"dump_list\": [\n"
             "            {\"model_name\": \"" +
             model_name +
             "\"}\n"
             "        ]\n    }\n}\n";
    case ConfigKind::kSingleOp:
      return "{\n    \"dump\": {\n" + path +
             "        \"dump_mode\": \"all\",\n"
             "        \"dump_op_switch\": \"on\"\n    }\n}\n";
    case ConfigKind::kOverflow:
      return "{\n    \"dump\": {\n" + path + "        \"dump_debug\": \"on\"\n    }\n}\n";
    case ConfigKind::kException:
      return "{\n    \"dump\": {\n        \"dump_scene\": \"lite_exception\"\n    }\n}\n";
    case ConfigKind::kWatcher:
      return "{\n    \"dump\": {\n" + path +
             "        \"dump_scene\": \"watcher\",\n"
             "        \"dump_mode\": \"output\",\n"
             "        \"dump_list\": [\n"
             "            {\"layer\": [\"OP_TO_WATCH_AFTER\"], \"watcher_nodes\": "
             "[\"OP_TO_WATCH\"]}\n"
             "        ]\n    }\n}\n";
  }
  return "{}\n";
}

}  // namespace dumpcmp
