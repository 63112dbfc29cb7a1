#pragma once
// The run index of a whole run (index.html of --tree): per graph a devices x steps matrix of the
// leaves coloured by verdict and linking each leaf's files; the compared tensors that fall lowest
// (the first divergent op's first) charted across steps, one line per device, with their other
// metrics folded (a graph of one step: a table of the values); and the tensors no leaf compared,
// named. Built from the leaves' outcomes and their typed values (a resumed leaf's from the
// journal), never from the result CSVs' printed digits.
#include <string>
#include <vector>

#include "tree/tree_compare.hpp"

namespace dumpcmp {

// Written atomically; throws Error naming the file when it cannot be written.
void write_tree_index(const std::string& path, const std::vector<TreeJob>& jobs,
                      const std::vector<LeafOutcome>& outcomes);

}  // namespace dumpcmp
