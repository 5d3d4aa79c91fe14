#include "runtime/baton.h"

#include <utility>

namespace aoc::runtime {

Baton::Baton(std::vector<int> barrier_class, std::vector<std::string> labels)
    : class_(std::move(barrier_class)), labels_(std::move(labels)),
      state_(class_.size(), State::Ready), started_(class_.size(), false) {}

size_t Baton::next_to_start() {
  std::unique_lock<std::mutex> lk(mu_);
  auto all_done = [&] {
    for (State s : state_)
      if (s != State::Done) return false;
    return true;
  };
  cv_.wait(lk, [&] {
    return aborted_ || all_done() || !finished_.empty() || (state_[holder_] == State::Ready && !started_[holder_]);
  });
  if (aborted_ || all_done()) return npos;
  if (state_[holder_] == State::Ready && !started_[holder_]) {
    started_[holder_] = true;
    return holder_;
  }
  return npos - 1;  // only finished cores to reap; ask again
}

std::vector<size_t> Baton::take_finished() {
  std::lock_guard<std::mutex> lk(mu_);
  return std::exchange(finished_, {});
}

void Baton::wait_turn(size_t me) {
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return aborted_ || (holder_ == me && state_[me] == State::Ready); });
  if (aborted_) throw LaunchAborted{};
}

bool Baton::pass_from(size_t me, bool caller_claims) {
  const size_t n = state_.size();
  for (size_t k = 1; k <= n; ++k) {
    size_t i = (me + k) % n;
    if (state_[i] == State::Ready) {
      holder_ = i;
      if (started_[i]) {
        cv_.notify_all();
        return false;
      }
      // No thread runs it yet: the caller runs it, or else the launcher starts a thread.
      if (!caller_claims) cv_.notify_all();
      return true;
    }
  }
  // Nobody can run: either everything finished, or the remaining cores wait forever.
  for (State s : state_)
    if (s == State::AtBarrier) {
      aborted_ = true;
      break;
    }
  cv_.notify_all();
  return false;
}

std::string Baton::waiting_peers(size_t me) const {
  std::string out;
  for (size_t i = 0; i < state_.size(); ++i)
    if (i != me && class_[i] == class_[me] && state_[i] == State::AtBarrier) {
      if (!out.empty()) out += ", ";
      out += labels_[i];
    }
  return out;
}

size_t Baton::finish(size_t me, std::string& deadlock) {
  std::lock_guard<std::mutex> lk(mu_);
  state_[me] = State::Done;
  std::string waiting = waiting_peers(me);
  if (!waiting.empty()) {
    aborted_ = true;
    cv_.notify_all();
    deadlock = "SyncAll deadlock: " + waiting + " wait(s) in SyncAll, but " + labels_[me] +
               " finished without reaching it (the device would hang)";
    return npos;
  }
  if (!pass_from(me, true) || aborted_) return npos;
  started_[holder_] = true;
  return holder_;
}

void Baton::thread_done(size_t first) {
  std::lock_guard<std::mutex> lk(mu_);
  finished_.push_back(first);
  cv_.notify_all();
}

std::string Baton::barrier(size_t me) {
  std::unique_lock<std::mutex> lk(mu_);
  if (aborted_) throw LaunchAborted{};
  state_[me] = State::AtBarrier;
  bool all_arrived = true;
  for (size_t i = 0; i < state_.size(); ++i) {
    if (class_[i] != class_[me]) continue;
    if (state_[i] == State::Done) {
      aborted_ = true;
      cv_.notify_all();
      return "SyncAll deadlock: " + labels_[me] + " waits in SyncAll, but " + labels_[i] +
             " finished without reaching it (the device would hang)";
    }
    if (state_[i] != State::AtBarrier) all_arrived = false;
  }
  if (all_arrived)
    for (size_t i = 0; i < state_.size(); ++i)
      if (class_[i] == class_[me]) state_[i] = State::Ready;
  pass_from(me, false);
  cv_.wait(lk, [&] { return aborted_ || (holder_ == me && state_[me] == State::Ready); });
  if (aborted_) throw LaunchAborted{};
  return {};
}

void Baton::abort() {
  std::lock_guard<std::mutex> lk(mu_);
  aborted_ = true;
  cv_.notify_all();
}

}  // namespace aoc::runtime
