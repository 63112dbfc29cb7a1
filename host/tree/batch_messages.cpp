#include "tree/batch_messages.hpp"

namespace dumpcmp::msg {

std::string batch_single_op_refused(const std::string& op) {
  return "the " + op + " single operator comparison is not supported for batch network comparison.";
}

std::string batch_path_not_timestamp(const std::string& path) {
  return "The " + path + " path must end with a timestamp.";
}

std::string batch_no_rule_json(const std::string& dir) {
  return "There is no fusion rule json file in \"'" + dir + "'\".";
}

std::string batch_path_format(const std::string& path) {
  return "The " + path +
         " does not match the path format,please save dump files in the "
         "dump_path/time/device_id/model_name/model_id/dump_step/dump_file path format";
}

std::string batch_no_graph_match(const std::string& path) {
  return "The " + path + " not match fusion rule file";
}

std::string batch_time_stamps_differ(const std::string& graph, const std::string& leaves) {
  return "The " + graph + " and in " + leaves +
         " dump data are not generated at the same time. The result may be incorrect.";
}

}  // namespace dumpcmp::msg
