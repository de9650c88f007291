#pragma once
// A capability an Estimator may offer: readings of what it learned, taken once when training ends (after the last
// step or an early stop), each a named result beside the estimate (RunResult::readings: summary.json's top-level
// fields, grid.csv's columns, the result line). The run asks for it with dynamic_cast, as for a representation probe
// (method/representation_probe.h). The dialogue methods' next-utterance retrieval (plugins/sequence) is one.
#include <QList>

#include "tasks/task.h"

namespace milab {

class LearnedReadings {
 public:
  virtual ~LearnedReadings() = default;
  // Named values; may take seconds (a reading of thousands of candidates), and draws nothing from the run's
  // generators, so asking for them never changes a run.
  virtual QList<NamedValue> learnedReadings() = 0;
};

}  // namespace milab
