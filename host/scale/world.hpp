#pragma once
// The ranks of one run and the bytes they exchange. A process started by mpirun or srun (and built
// with MPI) is one rank of an MPI world; any other process is a world of one. Only rank 0 writes
// the run's outputs; the other ranks send it records (docs/scale-out.md).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dumpcmp {

class World {
 public:
  virtual ~World() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // This rank's place among the ranks of its host (binds one GPU per rank).
  virtual int local_rank() const = 0;
  virtual std::string host() const = 0;

  // Rank 0's bytes, on every rank.
  virtual void broadcast(std::string& bytes) = 0;
  // Every rank's bytes, in rank order, at rank 0 (the others get an empty list).
  virtual std::vector<std::string> gather(const std::string& bytes) = 0;
  // A message to one rank. Never waits for the receiver: the world keeps the bytes until they
  // are delivered (finish_sends).
  virtual void send(int to, std::string bytes) = 0;
  // The next message from rank `from` (messages from one rank arrive in the order sent).
  virtual std::string receive(int from) = 0;
  // The next message from any rank, its sender in `from`; with wait == false, false at once when
  // none has arrived.
  virtual bool receive_any(int& from, std::string& bytes, bool wait) = 0;
  // Waits until every message this rank sent has been taken by its receiver.
  virtual void finish_sends() = 0;
  // Bytes this rank has sent and received so far. Every message goes to or from rank 0, so on
  // rank 0 this is all the run moved between ranks.
  virtual uint64_t bytes_moved() const = 0;
  // Ends every rank of the run with this exit code (a rank that cannot go on).
  [[noreturn]] virtual void abort(int code) = 0;
};

// The world of this process: MPI when dumpcmp was built with it and a launcher (mpirun, srun)
// started the process, else a world of one. MPI is finalised when the world is destroyed.
std::unique_ptr<World> make_world(int& argc, char**& argv);

// A world of one, whatever started the process (the Python module's compares).
std::unique_ptr<World> make_solo_world();

// "MPI (Open MPI v4.1.4)" or "no MPI": what this build has.
std::string mpi_build_info();

}  // namespace dumpcmp
