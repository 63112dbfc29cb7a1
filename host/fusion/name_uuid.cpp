// MD5 (RFC 1321) and the MD5 name-based UUID (RFC 4122 §4.3) that keys multi-name fusion groups.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "fusion/fusion_rule.hpp"

namespace dumpcmp {
namespace {

constexpr std::array<uint32_t, 64> kSine = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
constexpr std::array<int, 16> kShift = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};

uint32_t rotate_left(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

void md5_block(std::array<uint32_t, 4>& state, const unsigned char* block) {
  uint32_t m[16];
  for (int i = 0; i < 16; ++i) {
    const unsigned char* p = block + 4 * i;  // little-endian words, whatever the host order
    m[i] = static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (int i = 0; i < 64; ++i) {
    uint32_t f = 0;
    int g = 0;
    switch (i / 16) {
      case 0:
        f = (b & c) | (~b & d);
        g = i;
        break;
      case 1:
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
        break;
      case 2:
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
        break;
      default:
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
        break;
    }
    const int shift = kShift[static_cast<size_t>(i / 16 * 4 + i % 4)];
    const uint32_t rotated = rotate_left(a + f + kSine[static_cast<size_t>(i)] + m[g], shift);
    a = d;
    d = c;
    c = b;
    b += rotated;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

}  // namespace

std::array<uint8_t, 16> md5_digest(std::string_view data) {
  std::array<uint32_t, 4> state = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  size_t full = data.size() / 64;
  for (size_t i = 0; i < full; ++i) md5_block(state, bytes + 64 * i);

  // Padding: 0x80, zeros to 56 mod 64, then the bit length as a little-endian uint64.
  unsigned char tail[128] = {};
  const size_t rest = data.size() % 64;
  if (rest > 0) std::memcpy(tail, bytes + 64 * full, rest);
  tail[rest] = 0x80;
  const size_t tail_size = rest < 56 ? 64 : 128;
  const uint64_t bits = static_cast<uint64_t>(data.size()) * 8U;
  for (int i = 0; i < 8; ++i) {
    tail[tail_size - 8 + static_cast<size_t>(i)] = static_cast<unsigned char>(bits >> (8 * i));
  }
  md5_block(state, tail);
  if (tail_size == 128) md5_block(state, tail + 64);

  std::array<uint8_t, 16> digest{};
  for (size_t i = 0; i < 16; ++i) {
    digest[i] = static_cast<uint8_t>(state[i / 4] >> (8 * (i % 4)));
  }
  return digest;
}

namespace {
std::string to_hex(const uint8_t* bytes, size_t count) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(count * 2);
  for (size_t i = 0; i < count; ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 0x0f]);
  }
  return out;
}
}  // namespace

std::string md5_hex(std::string_view data) {
  const std::array<uint8_t, 16> digest = md5_digest(data);
  return to_hex(digest.data(), digest.size());
}

std::string uuid3_dns(std::string_view name) {
  // NAMESPACE_DNS = 6ba7b810-9dad-11d1-80b4-00c04fd430c8; Python hashes its bytes + UTF-8 name.
  static constexpr unsigned char kNamespaceDns[16] = {0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad,
                                                      0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0,
                                                      0x4f, 0xd4, 0x30, 0xc8};
  std::string input(reinterpret_cast<const char*>(kNamespaceDns), sizeof(kNamespaceDns));
  input.append(name);
  std::array<uint8_t, 16> b = md5_digest(input);
  b[6] = static_cast<uint8_t>((b[6] & 0x0f) | 0x30);  // version 3
  b[8] = static_cast<uint8_t>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  return to_hex(b.data(), 4) + "-" + to_hex(b.data() + 4, 2) + "-" + to_hex(b.data() + 6, 2) + "-" +
         to_hex(b.data() + 8, 2) + "-" + to_hex(b.data() + 10, 6);
}

}  // namespace dumpcmp
