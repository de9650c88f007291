#pragma once
// A capability an Estimator may offer: it learns a representation that the run reads by linear evaluation (DEMI's
// sec. 5.2 protocol), once before training (the untrained encoder: the honest floor), every probeEvery() steps on
// the curve, and at the end (summary.json's probe_accuracy and probe_accuracy_untrained). The run asks for it with
// dynamic_cast; an estimator of MI on vectors has none.
#include <optional>

#include "method/embedding_map.h"

namespace milab {

class RepresentationProbe {
 public:
  virtual ~RepresentationProbe() = default;
  // Steps between readings on the curve; 0: before and after training only.
  virtual int probeEvery() const = 0;
  // The share of test images a linear classifier of the frozen representation gets right, in [0, 1]. May take
  // seconds: polls the run's cancel and throws EstimatorCancelled.
  virtual double probeAccuracy() = 0;
  // The ceiling: the same encoder trained `steps` steps with the labels (a classifier on one view), from a
  // generator of its own seeded by `seed` (so that every objective of one setting and seed gets the same
  // number), then read by the same probe. Asked only when wantsSupervisedReference() (the method's options); the
  // run caches it per setting (engine/reference_cache.h). nullopt: none could be had.
  virtual bool wantsSupervisedReference() const { return false; }
  // The trained representation of test images drawn as a picture (method/embedding_map.h), once at the end of a
  // finished run; empty when the estimator has none.
  virtual EmbeddingMap embeddingMap() { return {}; }
  virtual std::optional<double> supervisedAccuracy(int steps, int seed) {
    (void)steps;
    (void)seed;
    return std::nullopt;
  }
};

}  // namespace milab
