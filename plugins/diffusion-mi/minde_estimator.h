#pragma once
// minde-c: MI as the gap between a score with y and without it (MINDE's conditional variant, Franzese, Bounoua and
// Michiardi, ICLR 2024; MustaphaBounoua/minde). By Girsanov's theorem the KL divergence between the diffusions of
// p(x | y) and p(x) is 1/2 the integral over t of beta(t) E |score(x_t | y) - score(x_t)|^2, and its mean over y is
// I(x;y). One network (denoiser.h) predicts the noise of x_t on the VP-SDE (vp_sde.h), with y or without it: each
// training batch is one or the other with probability 1/2 (MINDE's two masks). The reading, on held-out rows, is
// Z/2 mean |noise with y - noise without|^2 over times drawn from the importance density (vp_sde.h), by the
// weights' moving average. Its "sigma" variant, each prediction against a unit Gaussian's (the difference outside),
// is reported beside it. Only x is diffused (the conditional variant; MINDE-J diffuses both). Neither a lower nor an
// upper bound: like mmg's orthogonal form it is never negative, so any error of the network lifts it. With critic =
// oracle no network is trained: the task's exact Gaussian noise errors are integrated over the same draws.
#include <memory>

#include "method/estimator.h"
#include "method/method_plugin.h"
#include "minde_options.h"

namespace milab {

class MindeEstimator final : public Estimator {
 public:
  explicit MindeEstimator(const EstimatorContext& ctx);
  ~MindeEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

 private:
  struct Model;
  // Per row of x (repeated `repeats` times, a fresh t and noise each), already times Z / 2: MINDE-C's integrand and
  // its sigma variant's; and the training loss of the network read (Evaluation::loss).
  struct Integrands {
    at::Tensor inside, outside, loss;
  };
  // Draws from `gen`: the run's own in a training step, the rows' own in a reading (reading_draws.h).
  Integrands integrands(const at::Tensor& x, const at::Tensor& y, int64_t repeats, at::Generator& gen);
  Evaluation oracleReading(int64_t rows);

  EstimatorContext ctx_;
  MindeOptions options_;
  std::unique_ptr<Model> model_;  // null for the oracle
};

class MindePlugin : public MethodPlugin {
 public:
  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  QList<Ceiling> ceilingsOn(const ParamMap& params, const TaskModel& task) const override;  // its schedule's cap
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
