#pragma once
// The prior-order sweep (AMMI Figure 1(a)) on its own worker thread, for the window: start, poll, cancel,
// then read the result. Torch-free header.
#include <atomic>
#include <thread>

#include "engine/prior_order_sweep.h"

namespace milab {

class PriorOrderSweepJob {
 public:
  // `method` (the encoder's plugin) must outlive the job.
  PriorOrderSweepJob(PriorOrderSweepSpec spec, const MethodPlugin* method);
  ~PriorOrderSweepJob();  // cancels and joins
  PriorOrderSweepJob(const PriorOrderSweepJob&) = delete;
  PriorOrderSweepJob& operator=(const PriorOrderSweepJob&) = delete;

  const PriorOrderSweepSpec& spec() const { return spec_; }
  void start();
  void cancel() { cancel_.store(true); }
  bool isFinished() const { return finished_.load(std::memory_order_acquire); }
  int ordersDone() const { return ordersDone_.load(); }
  const PriorOrderSweep& result() const { return result_; }  // once isFinished()

 private:
  const PriorOrderSweepSpec spec_;
  const MethodPlugin* method_;
  std::atomic<bool> cancel_{false}, finished_{false};
  std::atomic<int> ordersDone_{0};
  PriorOrderSweep result_;
  std::thread thread_;
};

}  // namespace milab
