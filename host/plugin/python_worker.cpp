#include "plugin/python_worker.hpp"

#include <fcntl.h>
#include <signal.h>
#include <simdjson.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "core/json_text.hpp"

extern char** environ;

namespace dumpcmp {

extern const char* const kPluginWorkerScript;  // plugin_worker.py, embedded at build time

namespace {

std::string system_error(const std::string& what) { return what + ": " + std::strerror(errno); }

std::string json_object(const std::map<std::string, std::string>& values) {
  std::string out = "{";
  for (const auto& [key, value] : values) {
    if (out.size() > 1) out += ',';
    out += json_string(key) + ":" + json_string(value);
  }
  return out + "}";
}

std::vector<std::string> string_array(simdjson::dom::element e) {
  std::vector<std::string> out;
  simdjson::dom::array array;
  if (e.get_array().get(array)) return out;
  for (simdjson::dom::element item : array) {
    std::string_view s;
    if (!item.get_string().get(s)) out.emplace_back(s);
  }
  return out;
}

}  // namespace

PythonWorker::PythonWorker(const std::string& custom_dir, const std::vector<std::string>& names,
                           AlgorithmParams params, DiagnosticSink warnings)
    : params_(std::move(params)), warnings_(std::move(warnings)) {
  const char* chosen = std::getenv("DUMPCMP_PYTHON");
  python_ = chosen && *chosen ? chosen : "python3";
  shared_fd_ = memfd_create("dumpcmp-plugin", 0);  // inherited: the worker maps it by number
  int pair[2];
  if (shared_fd_ < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    if (shared_fd_ >= 0) close(shared_fd_);
    throw Error(ExitCode::kInternal, system_error("custom algorithms: cannot set up the worker"));
  }
  socket_ = pair[0];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pair[1], 0);
  posix_spawn_file_actions_adddup2(&actions, pair[1], 1);
  std::vector<std::string> args = {python_, "-c", kPluginWorkerScript, std::to_string(shared_fd_),
                                   custom_dir};
  args.insert(args.end(), names.begin(), names.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int spawned = posix_spawnp(&pid_, python_.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pair[1]);
  if (spawned != 0) {
    pid_ = -1;
    close(socket_);
    close(shared_fd_);
    throw Error(ExitCode::kUsage, "custom algorithms (-c) need Python 3 with numpy: cannot run " +
                                      python_ + ": " + std::strerror(spawned) +
                                      " (DUMPCMP_PYTHON names the interpreter)");
  }
  // The first line says which plug-ins loaded, or why none can run.
  const std::string line = read_line();
  simdjson::dom::parser parser;
  simdjson::dom::element reply;
  if (!dead_.empty() || parser.parse(line).get(reply)) {
    const std::string why = dead_.empty() ? "an unreadable answer" : dead_;
    shut_down();
    throw Error(ExitCode::kUsage,
                "custom algorithms (-c) need Python 3 with numpy: " + python_ + " gave " + why);
  }
  for (const std::string& w : string_array(reply["warnings"])) {
    if (warnings_) warnings_(Severity::kWarning, w);
  }
  std::string_view error;
  if (!reply["error"].get_string().get(error)) {
    const std::string message(error);
    shut_down();
    throw Error(ExitCode::kUsage, "custom algorithms (-c) need Python 3 with numpy: " + message);
  }
  loaded_ = string_array(reply["loaded"]);
}

PythonWorker::~PythonWorker() { shut_down(); }

void PythonWorker::shut_down() {
  if (socket_ >= 0) close(socket_);  // the worker's stdin ends: it exits
  socket_ = -1;
  if (pid_ > 0) {
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = -1;
  if (shared_) munmap(shared_, shared_size_);
  shared_ = nullptr;
  if (shared_fd_ >= 0) close(shared_fd_);
  shared_fd_ = -1;
}

std::pair<float*, float*> PythonWorker::arrays(int64_t n) {
  const uint64_t half = (static_cast<uint64_t>(n) * sizeof(float) + 63) / 64 * 64;
  auto* base = reinterpret_cast<float*>(buffer(2 * half));
  return {base, reinterpret_cast<float*>(reinterpret_cast<char*>(base) + half)};
}

uint8_t* PythonWorker::buffer(uint64_t bytes) {
  const uint64_t wanted = std::max<uint64_t>(bytes, 64);
  if (wanted > shared_size_) {
    if (shared_) munmap(shared_, shared_size_);
    shared_ = nullptr;
    shared_size_ = 0;
    if (ftruncate(shared_fd_, static_cast<off_t>(wanted)) != 0) {
      throw Error(ExitCode::kInput, system_error("custom algorithms: no shared memory for " +
                                                 std::to_string(wanted) + " bytes"));
    }
    void* p = mmap(nullptr, wanted, PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd_, 0);
    if (p == MAP_FAILED) throw Error(ExitCode::kInput, system_error("custom algorithms: mmap"));
    shared_ = p;
    shared_size_ = wanted;
  }
  return static_cast<uint8_t*>(shared_);
}

PythonWorker::Converted PythonWorker::convert_file(
    const std::string& module, const std::vector<int64_t>& shape_from,
    const std::vector<int64_t>& shape_to, std::string_view descr, int64_t count,
    const std::string& out_path, const std::vector<int64_t>* slice_to, int group) {
  auto list = [](const std::vector<int64_t>& dims) {
    std::string out = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? "," : "") + std::to_string(dims[i]);
    return out + "]";
  };
  if (dead_.empty()) {
    send_line("{\"kind\":\"convert\",\"size\":" + std::to_string(shared_size_) +
              ",\"module\":" + json_string(module) + ",\"shape_from\":" + list(shape_from) +
              ",\"shape_to\":" + list(shape_to) + ",\"dtype\":" + json_string(descr) +
              ",\"count\":" + std::to_string(count) + ",\"out\":" + json_string(out_path) +
              ",\"slice_to\":" + (slice_to ? list(*slice_to) : "null") +
              ",\"group\":" + std::to_string(group) + "}\n");
  }
  const std::string line = dead_.empty() ? read_line() : "";
  simdjson::dom::parser parser;
  simdjson::dom::element reply;
  if (!dead_.empty() || parser.parse(line).get(reply)) {
    throw Error(ExitCode::kInput, dead_.empty() ? "the custom conversion worker gave an unreadable "
                                                  "answer"
                                                : dead_);
  }
  std::string_view error;
  if (!reply["error"].get_string().get(error)) throw Error(ExitCode::kInput, std::string(error));
  Converted converted;
  if (!reply["unusable"].get_string().get(error)) {
    converted.unusable = error;
    return converted;
  }
  simdjson::dom::array dims;
  if (reply["shape"].get_array().get(dims)) {
    throw Error(ExitCode::kInput, "the custom conversion worker gave no shape");
  }
  for (simdjson::dom::element d : dims) {
    int64_t v = 0;
    if (d.get_int64().get(v))
      throw Error(ExitCode::kInput, "the custom conversion gave a bad shape");
    converted.shape.push_back(v);
  }
  bool sliced = true;
  if (!reply["sliced"].get_bool().get(sliced)) converted.sliced = sliced;
  return converted;
}

std::vector<PluginCell> PythonWorker::compare(int64_t n, const PluginCallArgs& args,
                                              const std::vector<std::string>& algorithms) {
  const uint64_t half = (static_cast<uint64_t>(n) * sizeof(float) + 63) / 64 * 64;
  std::string request = "{\"size\":" + std::to_string(shared_size_) +
                        ",\"count\":" + std::to_string(n) +
                        ",\"dtype\":" + (args.bools ? "\"bool\"" : "\"float32\"") +
                        ",\"y_offset\":" + std::to_string(half) +
                        ",\"args\":{\"my_output_dump_file\":" + json_string(args.my_file) +
                        ",\"ground_truth_dump_file\":" + json_string(args.golden_file) +
                        ",\"shape_type\":" + (args.scalar_shape ? "0" : "3") + "},\"algorithms\":[";
  for (std::size_t i = 0; i < algorithms.size(); ++i) {
    request += (i ? "," : "") + json_string(algorithms[i]);
  }
  request += "],\"params\":{";
  bool first = true;
  for (const auto& [name, values] : params_) {
    request += (first ? "" : ",") + json_string(name) + ":" + json_object(values);
    first = false;
  }
  request += "}}\n";
  if (dead_.empty()) send_line(request);
  std::vector<PluginCell> cells;
  if (dead_.empty()) {
    const std::string line = read_line();
    simdjson::dom::parser parser;
    simdjson::dom::element reply;
    simdjson::dom::array rows;
    if (dead_.empty() && !parser.parse(line).get(reply) && !reply["cells"].get_array().get(rows)) {
      for (const std::string& w : string_array(reply["warnings"])) {
        if (warnings_) warnings_(Severity::kWarning, w);
      }
      for (simdjson::dom::element row : rows) {
        const std::vector<std::string> pair = string_array(row);
        if (pair.size() == 2) cells.push_back({pair[0], pair[1]});
      }
    } else if (dead_.empty()) {
      dead_ = "the custom algorithm worker gave an unreadable answer";
    }
  }
  if (cells.size() != algorithms.size()) {
    if (dead_.empty()) dead_ = "the custom algorithm worker gave the wrong number of results";
    if (!death_reported_ && warnings_) warnings_(Severity::kError, dead_);
    death_reported_ = true;
    cells.assign(algorithms.size(), PluginCell{"NaN", dead_});
  }
  return cells;
}

void PythonWorker::send_line(const std::string& line) {
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = send(socket_, line.data() + done, line.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      dead_ = exit_problem();
      return;
    }
    done += static_cast<std::size_t>(n);
  }
}

std::string PythonWorker::read_line() {
  for (;;) {
    const std::size_t end = buffered_.find('\n');
    if (end != std::string::npos) {
      std::string line = buffered_.substr(0, end);
      buffered_.erase(0, end + 1);
      return line;
    }
    char chunk[65536];
    const ssize_t n = recv(socket_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      dead_ = exit_problem();
      return {};
    }
    buffered_.append(chunk, static_cast<std::size_t>(n));
  }
}

// Why the worker stopped answering, once it has exited.
std::string PythonWorker::exit_problem() {
  int status = 0;
  pid_t got;
  while ((got = waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  if (got != pid_) return "the custom algorithm worker (" + python_ + ") stopped answering";
  pid_ = -1;
  if (WIFSIGNALED(status)) {
    return "the custom algorithm worker (" + python_ + ") was killed by signal " +
           std::to_string(WTERMSIG(status));
  }
  return "the custom algorithm worker (" + python_ + ") exited with status " +
         std::to_string(WEXITSTATUS(status)) + " (see its messages above)";
}

}  // namespace dumpcmp
