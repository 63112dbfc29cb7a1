#pragma once
// Every output file of dumpcmp is written as "<path>.partial", flushed to disk and renamed into
// place: a reader never finds a partial file under the final name, and an interrupted run leaves
// only .partial files behind.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/partial_files.hpp"

namespace dumpcmp {

class AtomicFile {
 public:
  // Creates "<path>.partial"; throws Error(kInput) naming it when it cannot.
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // not committed: the partial file is removed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Flushes, syncs and renames the file to its final name; throws Error(kInput) naming it.
  void commit();
  const std::string& path() const { return path_; }

 private:
  void fail(const std::string& what);
  std::string path_, partial_;
  partial_files::Registration registration_{partial_};
  std::FILE* file_ = nullptr;
};

// For files another library writes (HDF5): syncs the finished "<path>.partial" and renames it to
// path; throws Error(kInput) naming path.
void publish_partial_file(const std::string& path);

// The same with a lifetime: "<path>.partial" is removed when this is dropped unpublished (an
// error on the way) or the run is interrupted.
class PartialOutput {
 public:
  explicit PartialOutput(std::string path);
  ~PartialOutput();
  PartialOutput(const PartialOutput&) = delete;
  PartialOutput& operator=(const PartialOutput&) = delete;
  const std::string& partial() const { return partial_; }
  void publish();

 private:
  std::string path_, partial_;
  partial_files::Registration registration_{partial_};
  bool published_ = false;
};

// The whole file at once, through an AtomicFile.
void write_file_atomically(const std::string& path, const void* data, std::size_t size);
inline void write_file_atomically(const std::string& path, std::string_view text) {
  write_file_atomically(path, text.data(), text.size());
}

}  // namespace dumpcmp
