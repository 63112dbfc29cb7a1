#pragma once
// What travels between ranks, as bytes: fixed-width little-endian integers, doubles by their bits
// (so a value arrives exactly as it left), length-prefixed strings. Only records, leaf facts and
// the run's jobs travel; tensors never do.
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "compare/plan_executor.hpp"
#include "core/diagnostics.hpp"
#include "core/error.hpp"
#include "math/pair_stats.hpp"
#include "report/record.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {

class ByteWriter {
 public:
  void u8(uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
  void i64(int64_t v);
  void f64(double v);
  void text(const std::string& s);
  void texts(const std::vector<std::string>& list);
  void raw(const void* data, std::size_t size) {
    bytes_.append(static_cast<const char*>(data), size);
  }
  std::string& bytes() { return bytes_; }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

// Reads what a ByteWriter wrote; throws Error(kInternal) when the bytes end early.
class ByteReader {
 public:
  explicit ByteReader(const std::string& bytes) : bytes_(bytes) {}
  uint8_t u8();
  int64_t i64();
  double f64();
  std::string text();
  std::vector<std::string> texts();
  void raw(void* data, std::size_t size);
  bool done() const { return at_ == bytes_.size(); }

 private:
  const char* need(std::size_t n);
  const std::string& bytes_;
  std::size_t at_ = 0;
};

void write_record(ByteWriter& out, const CompareRecord& record);
CompareRecord read_record(ByteReader& in);

// The accumulators of a tensor pair, byte for byte (the ranks of a run share one build).
void write_stats(ByteWriter& out, const PairStats& stats);
PairStats read_stats(ByteReader& in);

// Input problems (core/diagnostics), kind and text each.
void write_problems(ByteWriter& out, const std::vector<InputProblem>& problems);
std::vector<InputProblem> read_problems(ByteReader& in);

// What a rank's share of a plan came to: its rows, failures, bytes and input problems.
void write_execute_summary(ByteWriter& out, const ExecuteSummary& summary);
ExecuteSummary read_execute_summary(ByteReader& in);

// An error a rank cannot get past, for rank 0: its exit code and message.
void write_error(ByteWriter& out, const std::exception& e);
// The error rank `from` sent, as one rank 0 throws: "rank R: MESSAGE" with its exit code.
Error read_error(ByteReader& in, int from);

void write_table(ByteWriter& out, const std::vector<Metric>& metrics, const TableColumns& columns);
ResultTable read_table(ByteReader& in);

}  // namespace dumpcmp
