#pragma once
// The run observer that takes an estimator's learned readings (method/learned_readings.h) when training ends.
#include "engine/run.h"
#include "engine/run_observer.h"
#include "method/learned_readings.h"

namespace milab {

class LearnedReadingsAtEnd final : public RunObserver {
 public:
  explicit LearnedReadingsAtEnd(LearnedReadings& source) : source_(source) {}
  void trainingEnded(int, RunResult* result) override { result->readings << source_.learnedReadings(); }

 private:
  LearnedReadings& source_;
};

}  // namespace milab
