#pragma once
// InfoBridge (Kholkin, Butakov et al., ICLR 2026; SKholkin/infobridge): one drift network (drift_net.h) learns, by
// bridge matching, the drifts of the Brownian bridges from x's start to y ~ p(y|x) and to y ~ p(y) (a derangement of
// the batch's ys), and MI is read as (1 / 2 eps) times the integral over t of E |v_joint - v_ind|^2
// (brownian_bridge.h). The loss is the squared error of each drift against its bridge's, the joint's plus the
// independent's (the reference takes the error's norm, unsquared; the square's minimiser is the conditional mean the
// reading needs). Readings are on held-out rows, `draws` times each, uniform in [t_min, t_max] and scaled by that
// range's width (the integral over it), from a moving average of the weights, with draws of their own
// (nn/reading_draws.h); the held-out loss selects, as for the diffusion estimators. With critic = oracle no network
// is trained: gaussian2's exact drifts are read over the same bridges.
#include <memory>

#include "drift_net.h"
#include "infobridge_options.h"
#include "method/estimator.h"
#include "nn/flat_adam.h"
#include "nn/weight_average.h"

namespace milab {

class InfoBridgeEstimator final : public Estimator {
 public:
  explicit InfoBridgeEstimator(const EstimatorContext& ctx);
  ~InfoBridgeEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

  // Per row of x (repeated `repeats` times, fresh times and noise each, from `gen`): the reading's integrand and the
  // training loss, both on the same bridges.
  struct Integrands {
    at::Tensor reading, loss;
  };
  Integrands integrands(const at::Tensor& x, const at::Tensor& y, int64_t repeats, at::Generator& gen);

 private:
  // Bridges for rows x [n, dx], y [n, dy]: to each row's own y, and with `toOthers` to another row's y (a
  // derangement), drawn from `gen` in that order (the joint bridges' times and noise, the derangement, the others').
  struct Bridges {
    at::Tensor start, ends, t, z;
    at::Tensor others, tOthers, zOthers;  // undefined without toOthers
  };
  Bridges drawBridges(const at::Tensor& x, const at::Tensor& y, at::Generator& gen, bool toOthers) const;
  // Per row, bridge matching's squared errors: `jointDrift` (the joint drift at z) against the bridges' own drift,
  // and net's independent drift at the other bridges against theirs.
  static at::Tensor matchingErrors(DriftNet& net, const at::Tensor& x, const Bridges& b, const at::Tensor& jointDrift);
  at::Tensor startOf(const at::Tensor& x, int64_t dimY) const;
  // The two drifts at z (the network's average, or the oracle's exact ones).
  std::pair<at::Tensor, at::Tensor> drifts(const at::Tensor& z, const at::Tensor& x, const at::Tensor& start,
                                           const at::Tensor& t);

  EstimatorContext ctx_;
  InfoBridgeOptions options_;
  bool startsAtX_;
  double gaussianCorrelation_ = 0;  // the oracle's: gaussian2's per-coordinate correlation
  DriftNet net_{nullptr}, average_{nullptr};
  std::unique_ptr<FlatAdam> adam_;
  std::unique_ptr<WeightAverage> weights_;
};

}  // namespace milab
