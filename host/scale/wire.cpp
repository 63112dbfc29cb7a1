#include "scale/wire.hpp"

#include <cstring>
#include <type_traits>

#include "core/error.hpp"

namespace dumpcmp {

void ByteWriter::i64(int64_t v) {
  char b[8];
  for (int k = 0; k < 8; ++k) b[k] = static_cast<char>(static_cast<uint64_t>(v) >> (8 * k));
  bytes_.append(b, 8);
}

void ByteWriter::f64(double v) {
  int64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  i64(bits);
}

void ByteWriter::text(const std::string& s) {
  i64(static_cast<int64_t>(s.size()));
  bytes_ += s;
}

void ByteWriter::texts(const std::vector<std::string>& list) {
  i64(static_cast<int64_t>(list.size()));
  for (const std::string& s : list) text(s);
}

const char* ByteReader::need(std::size_t n) {
  if (n > bytes_.size() - at_) {
    throw Error(ExitCode::kInternal, "a message between ranks ended early (" +
                                         std::to_string(bytes_.size()) + " bytes)");
  }
  const char* p = bytes_.data() + at_;
  at_ += n;
  return p;
}

void ByteReader::raw(void* data, std::size_t size) { std::memcpy(data, need(size), size); }

uint8_t ByteReader::u8() { return static_cast<uint8_t>(*need(1)); }

int64_t ByteReader::i64() {
  const auto* b = reinterpret_cast<const unsigned char*>(need(8));
  uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v |= static_cast<uint64_t>(b[k]) << (8 * k);
  return static_cast<int64_t>(v);
}

double ByteReader::f64() {
  const int64_t bits = i64();
  double v = 0;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::string ByteReader::text() {
  const int64_t n = i64();
  if (n < 0) throw Error(ExitCode::kInternal, "a message between ranks holds a negative length");
  return std::string(need(static_cast<std::size_t>(n)), static_cast<std::size_t>(n));
}

std::vector<std::string> ByteReader::texts() {
  const int64_t n = i64();
  std::vector<std::string> list;
  for (int64_t k = 0; k < n; ++k) list.push_back(text());
  return list;
}

void write_record(ByteWriter& out, const CompareRecord& r) {
  out.i64(r.row);
  const RowIdentity& id = r.id;
  out.i64(id.index);
  for (const std::string* s :
       {&id.op_type, &id.my_op, &id.my_dtype, &id.my_address, &id.golden_op, &id.golden_dtype,
        &id.golden_address, &id.tensor_index, &id.shape, &id.overflow}) {
    out.text(*s);
  }
  out.i64(id.op_sequence);
  out.i64(static_cast<int64_t>(r.metrics.size()));
  for (const MetricCell& c : r.metrics) {
    // Only StandardDeviation has parts: cells that keep the default four NaNs, bit for bit, are
    // sent without them (a third of a row).
    const bool parts = std::memcmp(c.parts.data(), MetricCell{}.parts.data(), sizeof c.parts) != 0;
    out.u8(static_cast<uint8_t>(static_cast<unsigned>(c.status) | (parts ? 0x80u : 0u)));
    out.f64(c.value);
    if (parts) {
      for (double p : c.parts) out.f64(p);
    }
    out.text(c.reason);
  }
  out.u8(r.quantiles.has_value());
  if (r.quantiles) out.raw(&*r.quantiles, sizeof *r.quantiles);
  out.text(r.fail_reason);
  out.u8(static_cast<uint8_t>(r.verdict));
  out.text(r.verdict_why);
}

CompareRecord read_record(ByteReader& in) {
  CompareRecord r;
  r.row = in.i64();
  RowIdentity& id = r.id;
  id.index = in.i64();
  for (std::string* s :
       {&id.op_type, &id.my_op, &id.my_dtype, &id.my_address, &id.golden_op, &id.golden_dtype,
        &id.golden_address, &id.tensor_index, &id.shape, &id.overflow}) {
    *s = in.text();
  }
  id.op_sequence = in.i64();
  const int64_t cells = in.i64();
  for (int64_t k = 0; k < cells; ++k) {
    MetricCell c;
    const uint8_t status = in.u8();
    c.status = static_cast<CellStatus>(status & 0x7fu);
    c.value = in.f64();
    if (status & 0x80u) {
      for (double& p : c.parts) p = in.f64();
    }
    c.reason = in.text();
    r.metrics.push_back(std::move(c));
  }
  if (in.u8() != 0) {
    PairQuantiles q;
    in.raw(&q, sizeof q);
    r.quantiles = q;
  }
  r.fail_reason = in.text();
  r.verdict = static_cast<Verdict>(in.u8());
  r.verdict_why = in.text();
  return r;
}

static_assert(std::is_trivially_copyable_v<PairQuantiles> &&
              std::is_trivially_copyable_v<PairAccumulator> &&
              std::is_trivially_copyable_v<BoolAccumulator> &&
              std::is_trivially_copyable_v<KldAccumulator>);

void write_stats(ByteWriter& out, const PairStats& stats) {
  out.u8(stats.both_bool);
  out.raw(&stats.pair, sizeof stats.pair);
  out.raw(&stats.boolean, sizeof stats.boolean);
  out.u8(stats.kld.has_value());
  if (stats.kld) out.raw(&*stats.kld, sizeof *stats.kld);
}

PairStats read_stats(ByteReader& in) {
  PairStats stats;
  stats.both_bool = in.u8() != 0;
  in.raw(&stats.pair, sizeof stats.pair);
  in.raw(&stats.boolean, sizeof stats.boolean);
  if (in.u8() != 0) {
    KldAccumulator kld;
    in.raw(&kld, sizeof kld);
    stats.kld = kld;
  }
  return stats;
}

void write_problems(ByteWriter& out, const std::vector<InputProblem>& problems) {
  out.i64(static_cast<int64_t>(problems.size()));
  for (const InputProblem& p : problems) {
    out.u8(static_cast<uint8_t>(p.kind));
    out.text(p.text);
  }
}

std::vector<InputProblem> read_problems(ByteReader& in) {
  std::vector<InputProblem> problems;
  for (int64_t n = in.i64(); n > 0; --n) {
    const auto kind = static_cast<ProblemKind>(in.u8() % kProblemKinds);
    problems.push_back(InputProblem{kind, in.text()});
  }
  return problems;
}

void write_execute_summary(ByteWriter& out, const ExecuteSummary& summary) {
  out.i64(summary.rows);
  out.i64(summary.failed_rows);
  out.i64(static_cast<int64_t>(summary.bytes));
  write_problems(out, summary.input_problems);
}

ExecuteSummary read_execute_summary(ByteReader& in) {
  ExecuteSummary summary;
  summary.rows = in.i64();
  summary.failed_rows = in.i64();
  summary.bytes = static_cast<uint64_t>(in.i64());
  summary.input_problems = read_problems(in);
  return summary;
}

void write_error(ByteWriter& out, const std::exception& e) {
  const auto* error = dynamic_cast<const Error*>(&e);
  out.i64(static_cast<int64_t>(error ? error->code() : ExitCode::kInternal));
  out.text(e.what());
}

Error read_error(ByteReader& in, int from) {
  const auto code = static_cast<ExitCode>(in.i64());
  return Error(code, "rank " + std::to_string(from) + ": " + in.text());
}

void write_table(ByteWriter& out, const std::vector<Metric>& metrics, const TableColumns& columns) {
  out.i64(static_cast<int64_t>(metrics.size()));
  for (Metric m : metrics) out.u8(static_cast<uint8_t>(m));
  out.u8(columns.my_address);
  out.u8(columns.golden_address);
  out.u8(columns.op_sequence);
  out.u8(columns.overflow);
  out.u8(columns.quantiles);
}

ResultTable read_table(ByteReader& in) {
  std::vector<Metric> metrics;
  const int64_t n = in.i64();
  for (int64_t k = 0; k < n; ++k) {
    const uint8_t m = in.u8();
    if (m >= kMetricCount) throw Error(ExitCode::kInternal, "a message names an unknown metric");
    metrics.push_back(static_cast<Metric>(m));
  }
  TableColumns columns;
  columns.my_address = in.u8() != 0;
  columns.golden_address = in.u8() != 0;
  columns.op_sequence = in.u8() != 0;
  columns.overflow = in.u8() != 0;
  columns.quantiles = in.u8() != 0;
  return ResultTable(metrics, columns);
}

}  // namespace dumpcmp
