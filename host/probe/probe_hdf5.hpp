#pragma once
// `compare -tp -gp --hdf5 FILE`: a msprobe compare's result tables in one HDF5 file
// (docs/hdf5.md): `/results` for two dump.json files, `/pairs/<rank dir>/results` for step
// directories; one field per CSV column under msprobe's name, the metrics and statistics as
// float64, the rest as text.
#include <string>

#include "probe/probe_run.hpp"

namespace dumpcmp {

// Written as FILE.partial and renamed; throws Error(kInput) naming the file when it cannot be.
// `result` must hold the pairs' tables (ProbeRunOptions::keep_tables).
void write_probe_hdf5(const std::string& path, const ProbeRunOptions& options,
                      const ProbeRunResult& result);

// A cell of a number column as float64: the number msprobe wrote (" inf" and " -inf" as the CSV
// writes infinities, a statistics-mode relative error's percentage without its '%'), 1 and 0 for
// True and False, NaN for any other text ("N/A", "unsupported", "").
double probe_cell_number(const std::string& cell);

}  // namespace dumpcmp
