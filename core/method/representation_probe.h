#pragma once
// A capability an Estimator may offer: it learns a representation that the run reads by linear evaluation (DEMI's
// sec. 5.2 protocol), once before training (the untrained encoder: the honest floor), every probeEvery() steps on
// the curve, and at the end (summary.json's probe_accuracy and probe_accuracy_untrained). The run asks for it with
// dynamic_cast; an estimator of MI on vectors has none.
namespace milab {

class RepresentationProbe {
 public:
  virtual ~RepresentationProbe() = default;
  // Steps between readings on the curve; 0: before and after training only.
  virtual int probeEvery() const = 0;
  // The share of test images a linear classifier of the frozen representation gets right, in [0, 1]. May take
  // seconds: polls the run's cancel and throws EstimatorCancelled.
  virtual double probeAccuracy() = 0;
};

}  // namespace milab
