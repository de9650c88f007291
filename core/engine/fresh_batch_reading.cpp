// The evaluation batches one after another, without gradients (TrainingSession::evaluate).
#include "engine/fresh_batch_reading.h"

#include <cmath>
#include <vector>

#include "engine/training_session.h"

namespace milab {

ReadingEnd readFreshBatches(TrainingSession& session, int batches, const std::atomic<bool>& cancel,
                            std::atomic<int>* begun, HeldOutReading* reading) {
  std::vector<double> values;
  QList<NamedValue> termSums;
  for (int i = 0; i < batches; ++i) {
    if (cancel.load()) return ReadingEnd::Cancelled;
    begun->store(i + 1);
    const Evaluation e = session.evaluate();
    if (!std::isfinite(e.value)) return ReadingEnd::NonFinite;
    values.push_back(e.value);
    addToTermMeans(e.terms, batches, &termSums);
  }
  meanAndStderr(values, &reading->value, &reading->stderror);
  reading->terms = termSums;
  return ReadingEnd::Read;
}

}  // namespace milab
