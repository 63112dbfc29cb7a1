#pragma once
// A Python process that runs msaccucmp's custom algorithm files (plugin_worker.py) for one run:
// started once, fed one tensor pair at a time through shared memory (numpy views the floats where
// dumpcmp decoded them: no copy, no serialisation), answered with one line of JSON per pair.
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.hpp"

namespace dumpcmp {

// -a "Alg:name=value,...;Alg2:..." as msaccucmp parses it: algorithm -> its parameters (strings).
using AlgorithmParams = std::map<std::string, std::map<std::string, std::string>>;

// What a plug-in's compare(my_output, ground_truth, args) returned for one pair.
struct PluginCell {
  std::string text;    // the result cell ("NaN" when it failed)
  std::string reason;  // its message for CompareFailReason (may be empty)
};

// The args every call receives besides -a's parameters (msaccucmp's names).
struct PluginCallArgs {
  std::string my_file, golden_file;
  bool scalar_shape = false;  // args.shape_type: ShapeType.Scalar, else ShapeType.Tensor
  bool bools = false;         // the arrays hold n bytes 0/1 (numpy bool), not n floats
};

class PythonWorker {
 public:
  // Starts the interpreter (DUMPCMP_PYTHON, else python3 on PATH) and imports DIR/algorithm/
  // alg_<name>.py for each name; a file that cannot be used is warned about and left out
  // (loaded()). Throws Error(kUsage) naming what is missing: the interpreter or numpy.
  PythonWorker(const std::string& custom_dir, const std::vector<std::string>& names,
               AlgorithmParams params, DiagnosticSink warnings);
  ~PythonWorker();
  PythonWorker(const PythonWorker&) = delete;
  PythonWorker& operator=(const PythonWorker&) = delete;

  const std::vector<std::string>& loaded() const { return loaded_; }

  // Room for two float32 arrays of n elements in the shared memory: x at [0, n), y at the second
  // pointer. Valid until the next call.
  std::pair<float*, float*> arrays(int64_t n);
  // `bytes` bytes of shared memory for convert_file's input. Valid until the next call.
  uint8_t* buffer(uint64_t bytes);
  struct Converted {
    std::vector<int64_t> shape;  // of the array saved
    bool sliced = true;          // false: cutting it to slice_to failed, it is saved whole
    // msaccucmp's warning when the file cannot be used at all (no convert(), wrong argument
    // count, not importable); nothing is saved then.
    std::string unusable;
  };
  // Runs DIR/format_convert/<module>.py's convert(shape_from, shape_to, array[, group]) on
  // `count` elements of numpy dtype `descr` in buffer() (the group is passed when it is 2 or
  // more), then (with `slice_to`) cuts the result to that shape as msaccucmp's convert does, and
  // np.save()s it to `out_path`. Throws Error(kInput) with msaccucmp's message when the
  // conversion fails.
  Converted convert_file(const std::string& module, const std::vector<int64_t>& shape_from,
                         const std::vector<int64_t>& shape_to, std::string_view descr,
                         int64_t count, const std::string& out_path,
                         const std::vector<int64_t>* slice_to = nullptr, int group = 0);

  // Runs the named loaded algorithms, in order, on the arrays last given by arrays(n). If the
  // worker has died, every cell is "NaN" with the reason.
  std::vector<PluginCell> compare(int64_t n, const PluginCallArgs& args,
                                  const std::vector<std::string>& algorithms);

 private:
  void send_line(const std::string& line);
  std::string read_line();
  std::string exit_problem();
  void shut_down();  // ends the worker and frees what the constructor took

  std::vector<std::string> loaded_;
  AlgorithmParams params_;
  DiagnosticSink warnings_;
  std::string python_;
  pid_t pid_ = -1;
  int socket_ = -1, shared_fd_ = -1;
  void* shared_ = nullptr;
  uint64_t shared_size_ = 0;
  std::string buffered_, dead_;  // unread reply bytes; why the worker stopped (empty: running)
  bool death_reported_ = false;
};

}  // namespace dumpcmp
