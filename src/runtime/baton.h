// The baton that serialises the logical cores of a launch: one core runs at a time, the
// others sleep. A core gives the baton away when it finishes or waits in SyncAll. A thread
// whose core finished runs the next core itself when that core has not started yet, so a
// kernel without SyncAll runs all its cores on one thread: waking a sleeping thread costs
// a scheduling delay (half a millisecond and more on a busy machine), which on 48 cores
// outweighed the simulation of a small case.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace aoc::runtime {

// Raised inside a waiting core when another core failed: unwinds it without running more.
struct LaunchAborted {};

class Baton {
 public:
  // barrier_class[i]: cores with equal values synchronise together in SyncAll.
  // labels[i]: how messages name core i ("block 3 (AIV)").
  Baton(std::vector<int> barrier_class, std::vector<std::string> labels);

  // Blocks until core `me` holds the baton; throws LaunchAborted if the launch stopped.
  void wait_turn(size_t me);
  // Core `me` finished its kernel. Sets `deadlock` when cores of its barrier class wait in a
  // SyncAll that `me` never reached (the launch is then aborted). Returns the core the calling
  // thread runs next (the new holder, when no thread has started it; it is marked started),
  // or npos: the baton went to a core with a thread of its own, or the launch is over.
  size_t finish(size_t me, std::string& deadlock);
  // A launch thread ends; `first` is the core it was started for (the launcher joins it).
  void thread_done(size_t first);
  // SyncAll of core `me`: returns once every core of its class has arrived and `me` holds
  // the baton again. Returns a deadlock description (and aborts) if that cannot happen.
  std::string barrier(size_t me);
  void abort();
  // For the launching thread: waits until the baton reaches a core that has no thread yet
  // and returns its index (marking it started), or returns `npos` once the launch is over.
  // Cores get threads only when they first run, so a launch keeps few threads alive.
  size_t next_to_start();
  // Threads that ended since the last call, by the core each was started for (to be joined).
  std::vector<size_t> take_finished();
  static constexpr size_t npos = static_cast<size_t>(-1);

 private:
  enum class State { Ready, AtBarrier, Done };
  // holder = next Ready core after `me`; needs mu_ held. Returns whether that core has no
  // thread yet; when `caller_claims`, the caller then runs it and nobody is woken.
  bool pass_from(size_t me, bool caller_claims);
  std::string waiting_peers(size_t me) const;

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<int> class_;
  std::vector<std::string> labels_;
  std::vector<State> state_;
  std::vector<bool> started_;
  std::vector<size_t> finished_;
  size_t holder_ = 0;
  bool aborted_ = false;
};

}  // namespace aoc::runtime
