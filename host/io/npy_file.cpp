// read_npy_file, alone in its file: the msprobe compare reads MindSpore's .npy data files through
// it, and a library that reads only those (dumpcmp_resident's live compare) must not link the
// protobuf readers, whose descriptors the Python extension registers too.
#include <memory>
#include <string>

#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "io/byte_sources.hpp"
#include "io/dump_file.hpp"
#include "io/dump_readers.hpp"

namespace dumpcmp {

DumpFile read_npy_file(const std::string& path) {
  const io_detail::SharedBytes bytes =
      std::make_shared<const io_detail::MappedByteSource>(MappedFile::open(path));
  if (bytes->size() == 0) throw format_error(path, "empty file");
  DumpFile file = io_detail::read_npy(path, bytes);
  if (bytes->damaged()) throw format_error(path, std::string(io_detail::kShrank));
  return file;
}

}  // namespace dumpcmp
