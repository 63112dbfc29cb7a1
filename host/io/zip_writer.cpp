#include "io/zip_writer.hpp"

#include <zlib.h>

namespace dumpcmp {
namespace {

void put16(std::string& s, uint16_t v) {
  s += static_cast<char>(v & 0xFF);
  s += static_cast<char>(v >> 8);
}

void put32(std::string& s, uint32_t v) {
  put16(s, static_cast<uint16_t>(v & 0xFFFF));
  put16(s, static_cast<uint16_t>(v >> 16));
}

// version needed, flags, method (stored), time, date (1980-01-01), crc, sizes, name and extra
// lengths: the part the local and the central header share.
void put_common(std::string& s, uint32_t crc, std::size_t size, std::size_t name,
                std::size_t extra) {
  put16(s, 20);
  put16(s, 0);
  put16(s, 0);
  put16(s, 0);
  put16(s, 0x21);
  put32(s, crc);
  put32(s, static_cast<uint32_t>(size));
  put32(s, static_cast<uint32_t>(size));
  put16(s, static_cast<uint16_t>(name));
  put16(s, static_cast<uint16_t>(extra));
}

}  // namespace

void ZipWriter::add(const std::string& name, const void* data, std::size_t size) {
  const auto crc =
      static_cast<uint32_t>(crc32(0, static_cast<const Bytef*>(data), static_cast<uInt>(size)));
  constexpr std::size_t kHeader = 30, kExtraHeader = 4;
  std::size_t extra = 0, pad = 0;
  if (align_ > 0) {
    pad = (align_ - (offset_ + kHeader + name.size() + kExtraHeader) % align_) % align_;
    extra = kExtraHeader + pad;
  }
  std::string h;
  put32(h, 0x04034b50);
  put_common(h, crc, size, name.size(), extra);
  h += name;
  if (align_ > 0) {
    put16(h, 0x4246);  // torch's padding field id ("FB")
    put16(h, static_cast<uint16_t>(pad));
    h.append(pad, 'Z');
  }
  entries_.push_back({name, crc, size, offset_});
  file_.write(h);
  file_.write(data, size);
  offset_ += h.size() + size;
}

void ZipWriter::finish() {
  std::string cd;
  for (const Entry& e : entries_) {
    put32(cd, 0x02014b50);
    put16(cd, 20);  // made by
    put_common(cd, e.crc, e.size, e.name.size(), 0);
    put16(cd, 0);  // comment
    put16(cd, 0);  // disk
    put16(cd, 0);  // internal attributes
    put32(cd, 0);  // external attributes
    put32(cd, static_cast<uint32_t>(e.offset));
    cd += e.name;
  }
  std::string end;
  put32(end, 0x06054b50);
  put16(end, 0);
  put16(end, 0);
  put16(end, static_cast<uint16_t>(entries_.size()));
  put16(end, static_cast<uint16_t>(entries_.size()));
  put32(end, static_cast<uint32_t>(cd.size()));
  put32(end, static_cast<uint32_t>(offset_));
  put16(end, 0);
  file_.write(cd);
  file_.write(end);
  offset_ += cd.size() + end.size();
}

}  // namespace dumpcmp
