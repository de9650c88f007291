// mmg's training step, reading, oracle and plugin (mmg_estimator.h says what it estimates and how).
#include "mmg_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "denoiser.h"
#include "denoiser_average.h"
#include "gaussian_mmse.h"
#include "method/memory_need.h"
#include "method/score_matrix_estimator.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "reading_cap.h"
#include "reading_draws.h"

namespace milab {

struct MmgEstimator::Model {
  Denoiser denoiser{nullptr};
  std::unique_ptr<DenoiserAverage> average;  // what the readings use
  std::unique_ptr<FlatAdam> adam;
};

MmgEstimator::MmgEstimator(const EstimatorContext& ctx) : ctx_(ctx), options_(mmgOptions(ctx.params)) {
  if (options_.oracle) return;
  model_ = std::make_unique<Model>();
  const int64_t dimX = criticInputDim(*ctx.task), dimY = ctx.task->dimY();
  model_->denoiser = Denoiser(dimX, dimY, options_.hidden, options_.layers, ctx_.generator);
  model_->denoiser->to(ctx.device);
  model_->adam = std::make_unique<FlatAdam>(model_->denoiser->parameters(), options_.lr);
  model_->average =
      std::make_unique<DenoiserAverage>(model_->denoiser, dimX, dimY, options_.hidden, options_.layers, options_.ema);
}

MmgEstimator::~MmgEstimator() = default;

StepResult MmgEstimator::trainStep(const Batch& batch) {
  const at::Tensor x = criticInput(batch);
  const int64_t n = x.size(0);
  const LogSnrDraws draws = drawLogSnr(n, options_.range, ctx_.noise, x.options());
  const at::Tensor noise = at::randn(x.sizes(), ctx_.noise, x.options());
  const at::Tensor keep = keptRows(n, options_.dropout, ctx_.noise, x.options());
  const at::Tensor loss = denoisingLoss(model_->denoiser, x, batch.y, draws.g, draws.weight, noise, keep);
  descend(*model_->adam, loss);
  model_->average->update();
  c10::NoGradGuard noGrad;  // the step's reading: the chosen form on this batch, after the step
  return {integrands(x, batch.y, 1, ctx_.noise).reading(options_.orthogonal).mean(), loss.detach()};
}

MmgEstimator::Integrands MmgEstimator::integrands(const at::Tensor& x, const at::Tensor& y, int64_t repeats,
                                                  at::Generator& gen) {
  const at::Tensor xs = x.repeat({repeats, 1}), ys = y.repeat({repeats, 1});
  const int64_t n = xs.size(0);
  const LogSnrDraws draws = drawLogSnr(n, options_.range, gen, xs.options());
  const at::Tensor noise = at::randn(xs.sizes(), gen, xs.options());
  const at::Tensor z = noisedAt(xs, draws.g, noise);
  const at::Tensor level = draws.g / 10.0;
  Denoiser& net = model_->average->reader();
  const at::Tensor withY = net(z, level, ys, at::ones({n}, xs.options()));
  const at::Tensor withoutY = net(z, level, ys, at::zeros({n}, xs.options()));
  const at::Tensor halfWeight = 0.5 * draws.weight;
  const at::Tensor errorWithY = (noise - withY).pow(2).sum(1), errorWithoutY = (noise - withoutY).pow(2).sum(1);
  // The training loss (denoisingLoss) in expectation over its y-dropout.
  const double dropout = options_.dropout;
  return {halfWeight * (withY - withoutY).pow(2).sum(1), halfWeight * (errorWithoutY - errorWithY),
          halfWeight * ((1 - dropout) * errorWithY + dropout * errorWithoutY)};
}

Evaluation MmgEstimator::oracleReading(int64_t rows) {
  const TaskSampler::GaussianXSide side = ctx_.task->gaussianXSide();
  const LogSnrDraws draws =
      drawLogSnr(rows * options_.draws, options_.range, ctx_.noise, at::TensorOptions().device(ctx_.device));
  const at::Tensor gap = gaussianNoiseMmseGap(draws.g, side.marginal, side.givenY);
  const double v = (0.5 * draws.weight.to(at::kDouble) * gap).mean().item<double>();
  const double exact =
      gaussianImmseIntegral(side.marginal, side.givenY, options_.range.lowest(), options_.range.highest());
  return {v, {{"I-MMSE of the exact MMSEs (Monte Carlo)", v}, {"the same integral over the g range, exactly", exact}}};
}

Evaluation MmgEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  if (options_.oracle) return oracleReading(batch.y.size(0));
  const at::Tensor x = criticInput(batch);
  at::Generator draws = readingGenerator(x, batch.y, ctx_.device);
  const Integrands i = integrands(x, batch.y, options_.draws, draws);
  const double orthogonal = i.orthogonal.mean().item<double>(), difference = i.difference.mean().item<double>();
  const QString read = QStringLiteral(" (the reading)");
  return {options_.orthogonal ? orthogonal : difference,
          {{"I-MMSE, orthogonal form (never negative)" + (options_.orthogonal ? read : QString()), orthogonal},
           {"I-MMSE, difference of the errors" + (options_.orthogonal ? QString() : read), difference}},
          i.loss.mean().item<double>()};
}

MethodInfo MmgPlugin::info() const {
  MethodInfo i;
  i.id = "mmg";
  i.displayName = "MMG (diffusion I-MMSE)";
  i.family = "diffusion";
  i.summary =
      "one denoiser of x noised at log-SNR g, trained with y dropped on a share of the rows; reads 1/2 the integral "
      "over g of the squared gap between its guesses with and without y (I-MMSE's orthogonal form; form difference: of "
      "the gap between its errors), on held-out rows. Neither bound";
  i.params = mmgParamSpecs();
  i.lowerBound = false;
  i.selectsByHeldOutLoss = true;  // its denoising loss on held-out rows
  // asinh on light-tailed columns cost it at 10,000 samples (docs/benchmark.md): the lab's recipe maps heavy tails
  // only.
  i.labRecipeTransform = QStringLiteral("tails");
  i.readsHeavyTails = true;  // both Student-t tables within bmi's factor at 5,000 rows (docs/benchmark.md)
  i.testsBothSides = true;   // permuted ys widen its score gap: a one-sided test has no power
  return i;
}

QList<Ceiling> MmgPlugin::ceilingsOn(const ParamMap& params, const TaskModel& task) const {
  return readingCapOn(mmgOptions(params).range.capPerDirection(), task, readingLimits(params, task).high);
}

QString MmgPlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap&) const {
  if (mmgOptions(params).oracle && !task.capabilities.gaussianXSide)
    return QStringLiteral(
               "critic: mmg's oracle integrates exact Gaussian MMSEs, and task %1 has no Gaussian x side "
               "(gaussian2 and gaussian3 have one); use critic learned")
        .arg(task.id);
  return {};
}

// Estimated from the tensor sizes, not measured: a reading holds batch x draws rows of the network's activations
// (with y and without), about 3 floats per hidden unit per layer per pass.
MemoryNeed MmgPlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const MmgOptions o = mmgOptions(params);
  const double rows = double(o.batch) * double(o.draws);
  return {0.2e9 + rows * 2 * 3 * 4 * double(o.hidden * o.layers), QStringLiteral("draws"),
          QStringLiteral("the reading's batch x draws rows through the denoiser"),
          QStringLiteral("lower draws, batch or hidden")};
}

std::unique_ptr<Estimator> MmgPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<MmgEstimator>(context);
}

}  // namespace milab
