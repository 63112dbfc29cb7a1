#include "core/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/error.hpp"

namespace dumpcmp {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), partial_(path_ + ".partial") {
  file_ = std::fopen(partial_.c_str(), "wb");
  if (!file_) {
    throw Error(ExitCode::kInput, partial_ + ": cannot create: " + std::strerror(errno));
  }
}

AtomicFile::~AtomicFile() {
  if (!file_) return;
  std::fclose(file_);
  std::remove(partial_.c_str());
}

void AtomicFile::fail(const std::string& what) {
  const int err = errno;
  if (file_) std::fclose(file_);
  file_ = nullptr;
  std::remove(partial_.c_str());
  throw Error(ExitCode::kInput, path_ + ": " + what + ": " + std::strerror(err));
}

void AtomicFile::write(const void* data, std::size_t size) {
  if (size != 0 && std::fwrite(data, 1, size, file_) != size) fail("write failed");
}

void AtomicFile::commit() {
  if (std::fflush(file_) != 0 || fsync(fileno(file_)) != 0) fail("cannot write");
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) fail("cannot write");
  if (std::rename(partial_.c_str(), path_.c_str()) != 0) fail("cannot rename into place");
}

void publish_partial_file(const std::string& path) {
  const std::string partial = path + ".partial";
  std::FILE* f = std::fopen(partial.c_str(), "rb");
  const bool synced = f && fsync(fileno(f)) == 0;
  if (f) std::fclose(f);
  if (!synced || std::rename(partial.c_str(), path.c_str()) != 0) {
    throw Error(ExitCode::kInput, path + ": cannot rename into place: " + std::strerror(errno));
  }
}

PartialOutput::PartialOutput(std::string path)
    : path_(std::move(path)), partial_(path_ + ".partial") {}

PartialOutput::~PartialOutput() {
  if (!published_) std::remove(partial_.c_str());
}

void PartialOutput::publish() {
  publish_partial_file(path_);
  published_ = true;
}

void write_file_atomically(const std::string& path, const void* data, std::size_t size) {
  AtomicFile file(path);
  file.write(data, size);
  file.commit();
}

}  // namespace dumpcmp
