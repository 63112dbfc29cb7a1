#pragma once
// The run index of a whole run (`--html` with --tree): per graph a devices x steps matrix of the
// leaves coloured by verdict and linking each leaf's files, and for the tensors that fall furthest
// from 1 in cosine similarity a chart of it across steps, one line per device, and of each other
// metric (folded). Built from the
// leaves' result CSVs, so resumed leaves count like the others.
#include <string>
#include <vector>

#include "tree/tree_compare.hpp"

namespace dumpcmp {

// Written atomically; throws Error naming the file when it cannot be written. out_dir holds the
// result CSVs the outcomes name.
void write_tree_index(const std::string& path, const std::string& out_dir,
                      const std::vector<TreeJob>& jobs, const std::vector<LeafOutcome>& outcomes);

// The cells of a CSV line as Python's csv module writes them (quotes doubled inside quotes).
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace dumpcmp
