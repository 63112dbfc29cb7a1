#include "tree/tree_ranks.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/error.hpp"
#include "scale/record_batches.hpp"
#include "scale/shares.hpp"
#include "scale/wire.hpp"
#include "tree/tree_listing.hpp"

namespace fs = std::filesystem;

namespace dumpcmp {
namespace {

// What a rank tells rank 0 about its leaves.
enum class Message : uint8_t { kBegin = 1, kRecords, kEnd, kFailed, kDone, kFatal };

void write_leaf(ByteWriter& out, const TreeLeaf& leaf) {
  for (const std::string* s : {&leaf.path, &leaf.relative, &leaf.time, &leaf.device,
                               &leaf.model_name, &leaf.model_id, &leaf.step, &leaf.op_name}) {
    out.text(*s);
  }
}

TreeLeaf read_leaf(ByteReader& in) {
  TreeLeaf leaf;
  for (std::string* s : {&leaf.path, &leaf.relative, &leaf.time, &leaf.device, &leaf.model_name,
                         &leaf.model_id, &leaf.step, &leaf.op_name}) {
    *s = in.text();
  }
  return leaf;
}

// Bytes of the regular files directly in dir, each counted with the cost of opening it; 0 when
// dir cannot be read.
uint64_t directory_weight(const std::string& dir) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::error_code size_ec;
    const uintmax_t size = entry.is_regular_file(size_ec) ? entry.file_size(size_ec) : 0;
    if (!size_ec) bytes += size + kRowOverheadBytes;
  }
  return bytes;
}

bool readable(const std::string& path) {
  return path.empty() || access(path.c_str(), R_OK | X_OK) == 0;
}

// The census of one rank: per leaf, whether this host can read both sides, and the NPU side's
// weight.
std::string census(const std::vector<TreeJob>& jobs) {
  ByteWriter out;
  for (const TreeJob& job : jobs) {
    const bool ok = readable(job.leaf.path) && readable(job.golden_path);
    out.u8(ok);
    out.i64(ok ? static_cast<int64_t>(directory_weight(job.leaf.path)) : 0);
  }
  return out.take();
}

// The deal every rank receives: the jobs, the rule file of the run, and who runs each leaf.
struct Deal {
  std::vector<TreeJob> jobs;
  std::string fusion_rule;
  bool by_device = false;
};

std::string encode_deal(const std::vector<TreeJob>& jobs, const std::string& rule, bool by_device) {
  ByteWriter out;
  out.i64(static_cast<int64_t>(jobs.size()));
  for (const TreeJob& job : jobs) {
    write_leaf(out, job.leaf);
    for (const std::string* s : {&job.golden_path, &job.fusion_rule, &job.stem, &job.note}) {
      out.text(*s);
    }
  }
  out.text(rule);
  out.u8(by_device);
  return out.take();
}

Deal decode_deal(const std::string& bytes) {
  ByteReader in(bytes);
  Deal deal;
  const int64_t n = in.i64();
  for (int64_t k = 0; k < n; ++k) {
    TreeJob job;
    job.leaf = read_leaf(in);
    for (std::string* s : {&job.golden_path, &job.fusion_rule, &job.stem, &job.note}) {
      *s = in.text();
    }
    deal.jobs.push_back(std::move(job));
  }
  deal.fusion_rule = in.text();
  deal.by_device = in.u8() != 0;
  return deal;
}

std::string encode_owners(const std::vector<int>& owner) {
  ByteWriter out;
  for (int r : owner) out.i64(r);
  return out.take();
}

// A leaf's records on their way to rank 0: its table and facts first, then records about a
// mebibyte at a time, then its end.
class RemoteLeafSink final : public RecordSink {
 public:
  RemoteLeafSink(World& world, std::size_t k, LeafFacts facts)
      : world_(world),
        k_(k),
        facts_(std::move(facts)),
        batches_(world, header(Message::kRecords).take()) {}
  void begin(const ResultTable& table) override {
    ByteWriter out = header(Message::kBegin);
    write_table(out, table.metrics(), table.columns());
    out.i64(static_cast<int64_t>(facts_.bytes));
    out.i64(facts_.rows);
    out.u8(facts_.dump_match);
    out.texts(facts_.warnings);
    write_problems(out, facts_.input_problems);
    out.texts(facts_.input_op_names);
    world_.send(0, out.take());
  }
  void write(const CompareRecord& record) override { batches_.add(record); }
  void commit() override { end({}); }
  // The end of the leaf, with the bad input files met while its rows ran.
  void end(const std::vector<InputProblem>& problems) {
    batches_.flush();
    ByteWriter out = header(Message::kEnd);
    write_problems(out, problems);
    world_.send(0, out.take());
  }

 private:
  ByteWriter header(Message kind) const {
    ByteWriter out;
    out.u8(static_cast<uint8_t>(kind));
    out.i64(static_cast<int64_t>(k_));
    return out;
  }
  World& world_;
  std::size_t k_;
  LeafFacts facts_;
  RecordBatches batches_;
};

void send_failed(World& world, std::size_t k, const LeafOutcome& failure) {
  ByteWriter out;
  out.u8(static_cast<uint8_t>(Message::kFailed));
  out.i64(static_cast<int64_t>(k));
  out.i64(failure.exit_code);
  out.text(failure.message);
  world.send(0, out.take());
}

// The leaves dealt to this rank, planned one by one and run in groups of small leaves.
void run_dealt_leaves(World& world, const Deal& deal, const std::vector<int>& owner,
                      CompareOptions base, Backend& backend) {
  base.fusion_rule_path = deal.fusion_rule;
  base.progress = nullptr;
  LeafGroup group(base.batch_bytes);
  std::map<std::size_t, std::unique_ptr<RemoteLeafSink>> sinks;
  auto flush = [&] {
    if (group.empty()) return;
    for (LeafGroup::LeafRun& leaf : group.run(backend, base)) {
      if (leaf.failure) {
        send_failed(world, leaf.k, *leaf.failure);
      } else {
        sinks.at(leaf.k)->end(leaf.input_problems);
      }
      sinks.erase(leaf.k);
    }
  };
  for (std::size_t k = 0; k < deal.jobs.size(); ++k) {
    if (owner[k] != world.rank()) continue;
    const TreeJob& job = deal.jobs[k];
    const CompareOptions options = leaf_options(base, job);
    OpenedDumps opened;
    ComparePlan plan;
    try {
      plan = plan_compare(options, &opened);
    } catch (const std::exception& e) {
      send_failed(world, k, failed_outcome(e));
      continue;
    }
    if (!group.accepts(plan)) flush();
    auto sink = std::make_unique<RemoteLeafSink>(world, k, leaf_facts(plan));
    sink->begin(plan.table());
    group.add(k, std::move(plan), std::move(opened), *sink);
    sinks[k] = std::move(sink);
  }
  flush();
}

// Natural order of two relative paths, one component at a time (the order of discovery).
bool path_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const std::size_t ei = std::min(a.find('/', i), a.size());
    const std::size_t ej = std::min(b.find('/', j), b.size());
    const std::string_view x(a.data() + i, ei - i), y(b.data() + j, ej - j);
    if (x != y) return natural_less(x, y);
    i = ei + 1;
    j = ej + 1;
  }
  return a.size() - std::min(i, a.size()) < b.size() - std::min(j, b.size());
}

}  // namespace

std::vector<int> deal_leaves(World& world, const std::vector<TreeJob>& jobs,
                             const std::vector<char>& local, const CompareOptions& base,
                             bool by_device) {
  std::string bytes = encode_deal(jobs, base.fusion_rule_path, by_device);
  world.broadcast(bytes);
  std::vector<int> owner(jobs.size(), 0);
  std::vector<std::size_t> remote;  // the leaves any rank may run
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    if (!local[k]) remote.push_back(k);
  }
  std::vector<uint64_t> weights;
  if (by_device) {
    const std::vector<std::string> all = world.gather(census(jobs));
    std::vector<std::vector<int>> readers(remote.size());
    weights.assign(remote.size(), 0);
    for (int r = 0; r < world.size(); ++r) {
      ByteReader in(all[static_cast<std::size_t>(r)]);
      for (std::size_t k = 0, i = 0; k < jobs.size(); ++k) {
        const bool ok = in.u8() != 0;
        const auto weight = static_cast<uint64_t>(in.i64());
        if (i < remote.size() && remote[i] == k) {
          if (ok) readers[i].push_back(r);
          weights[i] = std::max(weights[i], weight);
          ++i;
        }
      }
    }
    std::vector<std::string> devices;
    for (std::size_t k : remote) devices.push_back(jobs[k].leaf.device);
    const std::vector<int> rank_of = assign_groups(weights, devices, readers, world.size());
    for (std::size_t i = 0; i < remote.size(); ++i) owner[remote[i]] = rank_of[i];
  } else {
    for (std::size_t k : remote) weights.push_back(directory_weight(jobs[k].leaf.path));
    const std::vector<Share> shares = balanced_shares(weights, world.size());
    for (std::size_t r = 0; r < shares.size(); ++r) {
      for (std::size_t i = shares[r].begin; i < shares[r].end; ++i) {
        owner[remote[i]] = static_cast<int>(r);
      }
    }
  }
  std::string owners = encode_owners(owner);
  world.broadcast(owners);
  return owner;
}

void run_tree_share(World& world, const CompareOptions& base, Backend& backend) {
  std::string bytes;
  world.broadcast(bytes);
  const Deal deal = decode_deal(bytes);
  if (deal.by_device) world.gather(census(deal.jobs));
  std::string owners;
  world.broadcast(owners);
  ByteReader in(owners);
  std::vector<int> owner;
  for (std::size_t k = 0; k < deal.jobs.size(); ++k) owner.push_back(static_cast<int>(in.i64()));
  ByteWriter end;
  try {
    run_dealt_leaves(world, deal, owner, base, backend);
    end.u8(static_cast<uint8_t>(Message::kDone));
  } catch (const std::exception& e) {
    end.u8(static_cast<uint8_t>(Message::kFatal));
    write_error(end, e);
  }
  world.send(0, end.take());
  world.finish_sends();
}

RemoteLeaves::RemoteLeaves(World& world, const std::vector<TreeJob>& jobs,
                           const TreeRunOptions& run, const CompareOptions& base,
                           std::function<void(std::size_t)> started, Finished finished)
    : world_(world),
      jobs_(jobs),
      run_(run),
      base_(base),
      started_(std::move(started)),
      finished_(std::move(finished)) {}

void RemoteLeaves::poll(bool wait) {
  while (ranks_done_ < world_.size() - 1) {
    int from = 0;
    std::string bytes;
    if (!world_.receive_any(from, bytes, wait)) return;
    handle(from, bytes);
  }
}

void RemoteLeaves::handle(int from, const std::string& bytes) {
  ByteReader in(bytes);
  const auto kind = static_cast<Message>(in.u8());
  if (kind == Message::kDone) {
    ++ranks_done_;
    return;
  }
  if (kind == Message::kFatal) throw read_error(in, from);
  const auto k = static_cast<std::size_t>(in.i64());
  if (k >= jobs_.size()) throw Error(ExitCode::kInternal, "a rank named an unknown leaf");
  switch (kind) {
    case Message::kBegin: {
      const ResultTable table = read_table(in);
      LeafFacts facts;
      facts.bytes = static_cast<uint64_t>(in.i64());
      facts.rows = in.i64();
      facts.dump_match = in.u8() != 0;
      facts.warnings = in.texts();
      facts.input_problems = read_problems(in);
      facts.input_op_names = in.texts();
      started_(k);
      try {
        open_[k] = std::make_unique<LeafResults>(jobs_[k], run_, base_, std::move(facts), table);
      } catch (const std::exception& e) {  // its result file cannot be created
        finished_(k, failed_outcome(e));
      }
      return;
    }
    case Message::kRecords: {
      const auto leaf = open_.find(k);
      while (!in.done()) {
        const CompareRecord record = read_record(in);
        if (leaf != open_.end()) leaf->second->sink().write(record);
      }
      return;
    }
    case Message::kEnd: {
      const auto leaf = open_.find(k);
      if (leaf == open_.end()) return;  // failed when its result file was created
      std::unique_ptr<LeafResults> results = std::move(leaf->second);
      open_.erase(leaf);
      results->add_input_problems(read_problems(in));
      LeafOutcome outcome;
      try {
        outcome = results->finish(base_);
      } catch (const std::exception& e) {
        outcome = failed_outcome(e);
      }
      outcome.rank = from;
      finished_(k, std::move(outcome));
      return;
    }
    case Message::kFailed: {
      const auto code = static_cast<ExitCode>(in.i64());
      const std::string message = in.text();
      if (open_.erase(k) == 0) started_(k);
      LeafOutcome outcome = failed_outcome(code, message);
      outcome.rank = from;
      finished_(k, std::move(outcome));
      return;
    }
    default:
      throw Error(ExitCode::kInternal,
                  "rank " + std::to_string(from) + " sent a message of an unknown kind");
  }
}

DumpTree discover_on_every_rank(World& world, const std::string& root) {
  DumpTree tree;
  ByteWriter out;
  try {
    tree = discover_dump_tree(root);
  } catch (const Error& e) {  // this host has none of the tree: say so, list nothing
    tree.root = root;
    tree.warnings.push_back(e.what());
  }
  out.i64(static_cast<int64_t>(tree.leaves.size()));
  for (const TreeLeaf& leaf : tree.leaves) write_leaf(out, leaf);
  out.texts(tree.warnings);
  const std::vector<std::string> all = world.gather(out.take());
  if (world.rank() != 0) return tree;
  DumpTree merged;
  merged.root = root;
  std::set<std::string> seen, warned;
  for (std::size_t r = 0; r < all.size(); ++r) {
    ByteReader in(all[r]);
    const int64_t n = in.i64();
    for (int64_t k = 0; k < n; ++k) {
      TreeLeaf leaf = read_leaf(in);
      if (seen.insert(leaf.relative).second) merged.leaves.push_back(std::move(leaf));
    }
    for (std::string& w : in.texts()) {
      if (warned.insert(w).second) merged.warnings.push_back(std::move(w));
    }
  }
  std::stable_sort(
      merged.leaves.begin(), merged.leaves.end(),
      [](const TreeLeaf& a, const TreeLeaf& b) { return path_less(a.relative, b.relative); });
  if (merged.leaves.empty() && !tree.warnings.empty()) {
    throw Error(ExitCode::kInput, tree.warnings.front());
  }
  return merged;
}

}  // namespace dumpcmp
