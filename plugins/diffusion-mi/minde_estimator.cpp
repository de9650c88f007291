// minde-c's training step, reading, oracle and plugin (minde_estimator.h says what it estimates and how).
#include "minde_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "denoiser.h"
#include "denoiser_average.h"
#include "gaussian_mmse.h"
#include "log_snr_draws.h"
#include "method/memory_need.h"
#include "method/score_matrix_estimator.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "reading_cap.h"
#include "reading_draws.h"

namespace milab {

struct MindeEstimator::Model {
  Denoiser network{nullptr};
  std::unique_ptr<DenoiserAverage> average;  // what the readings use
  std::unique_ptr<FlatAdam> adam;
  double lossScale = 1;  // MINDE's 1 + dim y / (dim x + dim y), for the share of columns left clean
};

MindeEstimator::MindeEstimator(const EstimatorContext& ctx) : ctx_(ctx), options_(mindeOptions(ctx.params)) {
  if (options_.oracle) return;
  model_ = std::make_unique<Model>();
  const int64_t dimX = criticInputDim(*ctx.task), dimY = ctx.task->dimY();
  const int64_t hidden = options_.hiddenFor(dimX + dimY);
  model_->network = Denoiser(dimX, dimY, hidden, options_.layers, ctx_.generator);
  model_->network->to(ctx.device);
  model_->adam = std::make_unique<FlatAdam>(model_->network->parameters(), options_.lr);
  model_->lossScale = 1.0 + double(dimY) / double(dimX + dimY);
  model_->average =
      std::make_unique<DenoiserAverage>(model_->network, dimX, dimY, hidden, options_.layers, options_.ema);
}

MindeEstimator::~MindeEstimator() = default;

StepResult MindeEstimator::trainStep(const Batch& batch) {
  const at::Tensor x = criticInput(batch);
  const int64_t n = x.size(0);
  const VpTimeDraws times = drawVpTimes(n, options_.schedule, ctx_.noise, x.options());
  const at::Tensor noise = at::randn(x.sizes(), ctx_.noise, x.options());
  // One mask for the whole batch (the reference's rand_batch = False): y given to every row or to none.
  const at::Tensor keep = keptRows(1, 0.5, ctx_.noise, x.options()).expand({n});
  const at::Tensor loss = scoreMatchingLoss(model_->network, x, batch.y, times, noise, keep, model_->lossScale);
  descend(*model_->adam, loss);
  model_->average->update();
  c10::NoGradGuard noGrad;  // the step's reading: MINDE-C on this batch, after the step
  return {integrands(x, batch.y, 1, ctx_.noise).inside.mean(), loss.detach()};
}

MindeEstimator::Integrands MindeEstimator::integrands(const at::Tensor& x, const at::Tensor& y, int64_t repeats,
                                                      at::Generator& gen) {
  const at::Tensor xs = x.repeat({repeats, 1}), ys = y.repeat({repeats, 1});
  const int64_t n = xs.size(0);
  const VpTimeDraws times = drawVpTimes(n, options_.schedule, gen, xs.options());
  const at::Tensor noise = at::randn(xs.sizes(), gen, xs.options());
  const at::Tensor z = noisedAt(xs, times.g, noise);
  Denoiser& net = model_->average->reader();
  const at::Tensor withY = net(z, times.t, ys, at::ones({n}, xs.options()));
  const at::Tensor withoutY = net(z, times.t, ys, at::zeros({n}, xs.options()));
  // A unit Gaussian's best guess of the noise, sqrt(sigmoid(-g)) z: the sigma variant's common reference.
  const at::Tensor gaussianGuess = at::sigmoid(-times.g).sqrt().unsqueeze(1) * z;
  const double halfZ = 0.5 * options_.schedule.normalizer();
  // The training loss (scoreMatchingLoss) in expectation over its mask, y given half the time.
  const double lossWeight = 0.5 * model_->lossScale / double(xs.size(1));
  return {halfZ * (withY - withoutY).pow(2).sum(1),
          halfZ * ((withY - gaussianGuess).pow(2).sum(1) - (withoutY - gaussianGuess).pow(2).sum(1)),
          lossWeight * ((noise - withY).pow(2).sum(1) + (noise - withoutY).pow(2).sum(1))};
}

Evaluation MindeEstimator::oracleReading(int64_t rows) {
  const TaskSampler::GaussianXSide side = ctx_.task->gaussianXSide();
  const VpTimeDraws times = drawVpTimes(rows * options_.draws, options_.schedule, ctx_.noise,
                                        at::TensorOptions().dtype(at::kDouble).device(ctx_.device));
  const at::Tensor gap = gaussianNoiseMmseGap(times.g, side.marginal, side.givenY);
  const double v = 0.5 * options_.schedule.normalizer() * gap.mean().item<double>();
  const double exact = gaussianImmseIntegral(side.marginal, side.givenY, options_.schedule.logSnrAt(1.0),
                                             options_.schedule.logSnrAt(options_.schedule.epsilon));
  return {v,
          {{"Girsanov integral of the exact noise errors (Monte Carlo)", v},
           {"the same integral from g(1) to g(eps), exactly (without the sliver t < eps)", exact}}};
}

Evaluation MindeEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  if (options_.oracle) return oracleReading(batch.y.size(0));
  const at::Tensor x = criticInput(batch);
  at::Generator draws = readingGenerator(x, batch.y, ctx_.device);
  const Integrands i = integrands(x, batch.y, options_.draws, draws);
  const double v = i.inside.mean().item<double>();
  return {v,
          {{"MINDE-C, difference of the scores (the reading)", v},
           {"MINDE-C(sigma), each score against a unit Gaussian's", i.outside.mean().item<double>()}},
          i.loss.mean().item<double>()};
}

MethodInfo MindePlugin::info() const {
  MethodInfo i;
  i.id = "minde-c";
  i.displayName = "MINDE-C (diffusion scores)";
  i.family = "diffusion";
  i.summary =
      "one score network of x diffused on a VP-SDE, trained with y and without it; reads 1/2 the integral over t of "
      "beta(t) times the squared gap between its two scores (Girsanov), on held-out rows. Neither bound";
  i.params = mindeParamSpecs();
  i.lowerBound = false;
  i.selectsByHeldOutLoss = true;  // its score-matching loss on held-out rows
  // asinh on light-tailed columns cost it at 10,000 samples (docs/benchmark.md): the lab's recipe maps heavy tails
  // only.
  i.labRecipeTransform = QStringLiteral("tails");
  i.readsHeavyTails = true;  // both Student-t tables within bmi's factor at 5,000 rows (docs/benchmark.md)
  i.testsBothSides = true;   // permuted ys widen its score gap: a one-sided test has no power
  return i;
}

QList<Ceiling> MindePlugin::ceilingsOn(const ParamMap& params, const TaskModel& task) const {
  return readingCapOn(mindeOptions(params).schedule.capPerDirection(), task, readingLimits(params, task).high);
}

QString MindePlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap&) const {
  const MindeOptions o = mindeOptions(params);
  if (o.schedule.betaMax <= o.schedule.betaMin)
    return QStringLiteral("beta_max: must be above beta_min (%1), got %2")
        .arg(o.schedule.betaMin)
        .arg(o.schedule.betaMax);
  if (o.oracle && !task.capabilities.gaussianXSide)
    return QStringLiteral(
               "critic: minde-c's oracle integrates exact Gaussian noise errors, and task %1 has no Gaussian x side "
               "(gaussian2 and gaussian3 have one); use critic learned")
        .arg(task.id);
  return {};
}

// Estimated from the tensor sizes, not measured: a reading holds batch x draws rows of the network's activations
// (with y and without), about 3 floats per hidden unit per layer per pass, at the widest automatic width.
MemoryNeed MindePlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const MindeOptions o = mindeOptions(params);
  const double rows = double(o.batch) * double(o.draws), width = double(o.hidden > 0 ? o.hidden : 256);
  return {0.2e9 + rows * 2 * 3 * 4 * width * double(o.layers), QStringLiteral("draws"),
          QStringLiteral("the reading's batch x draws rows through the score network"),
          QStringLiteral("lower draws, batch or hidden")};
}

std::unique_ptr<Estimator> MindePlugin::create(const EstimatorContext& context) const {
  return std::make_unique<MindeEstimator>(context);
}

}  // namespace milab
