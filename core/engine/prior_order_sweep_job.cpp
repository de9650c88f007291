#include "engine/prior_order_sweep_job.h"

namespace milab {

PriorOrderSweepJob::PriorOrderSweepJob(PriorOrderSweepSpec spec, const MethodPlugin* method)
    : spec_(std::move(spec)), method_(method) {}

PriorOrderSweepJob::~PriorOrderSweepJob() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

void PriorOrderSweepJob::start() {
  thread_ = std::thread([this] {
    result_ = runPriorOrderSweep(
        spec_, *method_, [this](const PriorOrderPoint&) { ++ordersDone_; }, cancel_);
    finished_.store(true, std::memory_order_release);  // result_ is complete before anyone reads it
  });
}

}  // namespace milab
