#pragma once
#include <string>
#include <vector>

namespace dumpcmp::cli {

// msaccucmp (argparse) spells some long options with one dash (-out, -alg, -max, ...); CLI11 does
// not, so these are rewritten to their double-dash forms before parsing.
std::vector<std::string> expand_single_dash_aliases(int argc, const char* const* argv);

}  // namespace dumpcmp::cli
