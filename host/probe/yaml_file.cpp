#include "probe/yaml_file.hpp"

#include "core/error.hpp"
#include "core/text.hpp"

namespace dumpcmp {

YAML::Node load_probe_yaml(const std::string& path, const std::string& what) {
  if (!ends_with(path, ".yaml")) throw format_error(path, what + " does not end with .yaml");
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw format_error(path, what + " cannot be read");
  } catch (const YAML::Exception& e) {
    throw format_error(path,
                       "not YAML: " + e.msg + " (line " + std::to_string(e.mark.line + 1) + ")");
  }
}

}  // namespace dumpcmp
