#pragma once
// `compare -tp -gp --html FILE`: one self-contained page of a msprobe compare (no network, no
// scripts): each pair's rows by msprobe's Result with its first error and result file, the pairs
// that wrote nothing and why, then each pair's error and warning rows with their names, dtypes,
// shapes, the mode's metric cells and Err_message.
#include <string>
#include <vector>

#include "probe/probe_run.hpp"

namespace dumpcmp {

// The rows shown per pair, errors first; the page says how many more there are.
inline constexpr std::size_t kProbeHtmlRows = 1000;

// Written to FILE.partial and renamed; throws Error(kInput) naming the file when it cannot be.
// `result` must hold the pairs' tables (ProbeRunOptions::keep_tables).
void write_probe_html(const std::string& path, const ProbeRunOptions& options,
                      const ProbeRunResult& result);

}  // namespace dumpcmp
