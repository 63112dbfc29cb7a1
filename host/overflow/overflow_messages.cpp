#include "overflow/overflow_messages.hpp"

namespace dumpcmp::msg {

std::string overflow_dump_dir_invalid(const std::string& dir) {
  return "[Overflow] the -d parameter: \"" + dir + "\" is invalid!";
}

}  // namespace dumpcmp::msg
