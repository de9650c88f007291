#include "infobridge_estimator.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "brownian_bridge.h"
#include "method/score_matrix_estimator.h"
#include "nn/derangement.h"
#include "nn/descent.h"
#include "nn/reading_draws.h"

namespace milab {

InfoBridgeEstimator::InfoBridgeEstimator(const EstimatorContext& ctx)
    : ctx_(ctx),
      options_(infoBridgeOptions(ctx.params)),
      startsAtX_(options_.startsAtX(criticInputDim(*ctx.task), ctx.task->dimY())) {
  if (options_.oracle) {
    // gaussian2 (the only task the oracle runs on): y = a x + sqrt(1 - a^2) e per coordinate with x ~ N(0, I), so x's
    // variance given y is 1 - a^2 in every coordinate.
    const TaskSampler::GaussianXSide side = ctx.task->gaussianXSide();
    gaussianCorrelation_ = std::sqrt(1 - side.givenY[0].item<double>() / side.marginal[0].item<double>());
    return;
  }
  const int64_t dimX = criticInputDim(*ctx.task), dimY = ctx.task->dimY();
  net_ = DriftNet(dimY, dimX, options_.hidden, options_.layers, ctx_.generator);
  net_->to(ctx.device);
  adam_ = std::make_unique<FlatAdam>(net_->parameters(), options_.lr);
  std::vector<at::Tensor> averaged;
  if (options_.ema > 0) {
    at::Generator unused = at::make_generator<at::CPUGeneratorImpl>(0);  // overwritten by the trained weights
    average_ = DriftNet(dimY, dimX, options_.hidden, options_.layers, unused);
    average_->to(ctx.device);
    averaged = average_->parameters();
  }
  weights_ = std::make_unique<WeightAverage>(net_->parameters(), averaged, options_.ema);
}

InfoBridgeEstimator::~InfoBridgeEstimator() = default;

at::Tensor InfoBridgeEstimator::startOf(const at::Tensor& x, int64_t dimY) const {
  return startsAtX_ ? x : at::zeros({x.size(0), dimY}, x.options());
}

std::pair<at::Tensor, at::Tensor> InfoBridgeEstimator::drifts(const at::Tensor& z, const at::Tensor& x,
                                                              const at::Tensor& start, const at::Tensor& t) {
  if (options_.oracle) {
    const double a = gaussianCorrelation_;
    const at::Tensor zd = z.to(at::kDouble), xd = x.to(at::kDouble), sd = start.to(at::kDouble), td = t.to(at::kDouble);
    const at::Tensor unit = at::ones({1}, zd.options());
    return {gaussianBridgeDrift(zd, sd, td, a * xd, (1 - a * a) * unit, options_.eps),
            gaussianBridgeDrift(zd, sd, td, at::zeros_like(xd), unit, options_.eps)};
  }
  DriftNet& reader = average_ ? average_ : net_;
  return {reader(z, x, t, true), reader(z, x, t, false)};
}

InfoBridgeEstimator::Bridges InfoBridgeEstimator::drawBridges(const at::Tensor& x, const at::Tensor& y,
                                                              at::Generator& gen, bool toOthers) const {
  Bridges b;
  const int64_t n = x.size(0);
  b.start = startOf(x, y.size(1));
  b.ends = y;
  b.t = bridgeTimes(n, options_.tMin, options_.tMax, gen, y.options());
  b.z = bridgeState(b.start, y, b.t, at::randn(y.sizes(), gen, y.options()), options_.eps);
  if (!toOthers) return b;
  b.others = y.index_select(0, randomDerangement(n, gen, y.options().dtype(at::kLong)));
  b.tOthers = bridgeTimes(n, options_.tMin, options_.tMax, gen, y.options());
  b.zOthers = bridgeState(b.start, b.others, b.tOthers, at::randn(y.sizes(), gen, y.options()), options_.eps);
  return b;
}

at::Tensor InfoBridgeEstimator::matchingErrors(DriftNet& net, const at::Tensor& x, const Bridges& b,
                                               const at::Tensor& jointDrift) {
  return (jointDrift - bridgeTarget(b.ends, b.z, b.t)).pow(2).sum(1) +
         (net(b.zOthers, x, b.tOthers, false) - bridgeTarget(b.others, b.zOthers, b.tOthers)).pow(2).sum(1);
}

InfoBridgeEstimator::Integrands InfoBridgeEstimator::integrands(const at::Tensor& x, const at::Tensor& y,
                                                                int64_t repeats, at::Generator& gen) {
  const at::Tensor xs = x.repeat({repeats, 1});
  const Bridges b = drawBridges(xs, y.repeat({repeats, 1}), gen, !options_.oracle);
  const auto [joint, independent] = drifts(b.z, xs, b.start, b.t);
  const double width = options_.tMax - options_.tMin;
  const at::Tensor reading = (joint - independent).pow(2).sum(1) * (width / (2 * options_.eps));
  if (options_.oracle) return {reading, at::zeros_like(reading)};
  // The held-out loss: the joint drift's error on these bridges, the independent drift's on bridges to other rows' ys.
  return {reading, matchingErrors(average_ ? average_ : net_, xs, b, joint)};
}

StepResult InfoBridgeEstimator::trainStep(const Batch& batch) {
  const at::Tensor x = criticInput(batch);
  const Bridges b = drawBridges(x, batch.y, ctx_.noise, true);
  const at::Tensor loss = matchingErrors(net_, x, b, net_(b.z, x, b.t, true)).mean();
  descend(*adam_, loss);
  weights_->update();
  c10::NoGradGuard noGrad;  // the step's reading: one bridge per row of this batch, after the step
  return {integrands(x, batch.y, 1, ctx_.noise).reading.mean(), loss.detach()};
}

Evaluation InfoBridgeEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  const at::Tensor x = criticInput(batch);
  at::Generator draws = readingGenerator(x, batch.y, ctx_.device);
  const Integrands i = integrands(x, batch.y, options_.draws, draws);
  const double v = i.reading.mean().item<double>();
  const QString name = options_.oracle ? QStringLiteral("I_bridge of gaussian2's exact drifts (Monte Carlo)")
                                       : QStringLiteral("I_bridge, (1/2 eps) integral of |v_joint - v_ind|^2");
  return {v, {{name, v}}, options_.oracle ? std::nan("") : i.loss.mean().item<double>()};
}

}  // namespace milab
