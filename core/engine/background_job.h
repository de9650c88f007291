#pragma once
// One long computation on its own worker thread, for the window: start, poll, cancel, then read the result.
// The work gets a cancel flag to poll and a counter to raise as it makes progress (the prior-order sweep's
// orders, the hashing experiment's rows). Torch-free.
#include <atomic>
#include <functional>
#include <thread>
#include <utility>

#include "engine/device.h"

namespace milab {

template <typename Result>
class BackgroundJob {
 public:
  using Work = std::function<Result(const std::atomic<bool>& cancel, std::atomic<int>& progress)>;

  explicit BackgroundJob(Work work) : work_(std::move(work)) {}
  ~BackgroundJob() {  // cancels and joins
    cancel();
    if (thread_.joinable()) thread_.join();
  }
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;

  void start() {
    thread_ = std::thread([this] {
      configureThisThread();
      result_ = work_(cancel_, progress_);
      finished_.store(true, std::memory_order_release);  // result_ is complete before anyone reads it
    });
  }
  void cancel() { cancel_.store(true); }
  bool isFinished() const { return finished_.load(std::memory_order_acquire); }
  int progress() const { return progress_.load(); }
  const Result& result() const { return result_; }  // once isFinished()

 private:
  Work work_;
  std::atomic<bool> cancel_{false}, finished_{false};
  std::atomic<int> progress_{0};
  Result result_;
  std::thread thread_;
};

}  // namespace milab
