// The diffusion estimator's training step, reading and oracle (diffusion_estimator.h says what it estimates).
#include "diffusion_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <utility>

#include "denoiser_average.h"
#include "gaussian_mmse.h"
#include "log_snr_draws.h"
#include "method/score_matrix_estimator.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "nn/reading_draws.h"

namespace milab {

struct DiffusionEstimator::Model {
  Denoiser denoiser{nullptr};
  std::unique_ptr<DenoiserAverage> average;  // what the readings use
  std::unique_ptr<FlatAdam> adam;
};

at::Tensor denoisingLoss(Denoiser& denoiser, const at::Tensor& x, const at::Tensor& y, const NoiseDraws& draws,
                         const at::Tensor& noise, const at::Tensor& keep, const DiffusionRecipe& recipe) {
  const at::Tensor error = (noise - denoiser(noisedAt(x, draws.g, noise), draws.level, y, keep)).pow(2).sum(1);
  return recipe.lossFactor * (recipe.weighLoss ? (draws.weight * error).mean() : error.mean());
}

const at::Tensor& DiffusionEstimator::Integrands::reading(bool secondForm) const {
  return secondForm ? second : orthogonal;
}

DiffusionEstimator::DiffusionEstimator(const EstimatorContext& ctx, DiffusionRecipe recipe)
    : ctx_(ctx), recipe_(std::move(recipe)) {
  const DiffusionRecipe::Network& net = recipe_.network;
  if (net.oracle) return;
  model_ = std::make_unique<Model>();
  const int64_t dimX = criticInputDim(*ctx.task), dimY = ctx.task->dimY();
  model_->denoiser = Denoiser(dimX, dimY, net.hidden, net.layers, ctx_.generator);
  model_->denoiser->to(ctx.device);
  model_->adam = std::make_unique<FlatAdam>(model_->denoiser->parameters(), net.lr);
  model_->average = std::make_unique<DenoiserAverage>(model_->denoiser, dimX, dimY, net.hidden, net.layers, net.ema);
}

DiffusionEstimator::~DiffusionEstimator() = default;

StepResult DiffusionEstimator::trainStep(const Batch& batch) {
  const at::Tensor x = criticInput(batch);
  const int64_t n = x.size(0);
  const NoiseDraws draws = recipe_.schedule->draw(n, ctx_.noise, x.options());
  const at::Tensor noise = at::randn(x.sizes(), ctx_.noise, x.options());
  const at::Tensor keep =
      keptRows(recipe_.dropWholeBatch ? 1 : n, recipe_.dropout, ctx_.noise, x.options()).expand({n});
  const at::Tensor loss = denoisingLoss(model_->denoiser, x, batch.y, draws, noise, keep, recipe_);
  descend(*model_->adam, loss);
  model_->average->update();
  c10::NoGradGuard noGrad;  // the step's reading: the chosen form on this batch, after the step
  return {integrands(x, batch.y, 1, ctx_.noise).reading(recipe_.readsSecond).mean(), loss.detach()};
}

DiffusionEstimator::Integrands DiffusionEstimator::integrands(const at::Tensor& x, const at::Tensor& y, int64_t repeats,
                                                              at::Generator& gen) {
  const at::Tensor xs = x.repeat({repeats, 1}), ys = y.repeat({repeats, 1});
  const int64_t n = xs.size(0);
  const NoiseDraws draws = recipe_.schedule->draw(n, gen, xs.options());
  const at::Tensor noise = at::randn(xs.sizes(), gen, xs.options());
  const at::Tensor z = noisedAt(xs, draws.g, noise);
  Denoiser& net = model_->average->reader();
  const at::Tensor withY = net(z, draws.level, ys, at::ones({n}, xs.options()));
  const at::Tensor withoutY = net(z, draws.level, ys, at::zeros({n}, xs.options()));
  const at::Tensor halfWeight = 0.5 * draws.weight;
  const at::Tensor errorWithY = (noise - withY).pow(2).sum(1), errorWithoutY = (noise - withoutY).pow(2).sum(1);
  at::Tensor second;
  if (recipe_.second == DiffusionRecipe::SecondForm::errorGap) {
    second = halfWeight * (errorWithoutY - errorWithY);
  } else {
    const at::Tensor gaussianGuess = at::sigmoid(-draws.g).sqrt().unsqueeze(1) * z;
    second = halfWeight * ((withY - gaussianGuess).pow(2).sum(1) - (withoutY - gaussianGuess).pow(2).sum(1));
  }
  // The training loss in expectation over its y-dropout.
  const double dropout = recipe_.dropout;
  const at::Tensor mixed = (1 - dropout) * errorWithY + dropout * errorWithoutY;
  const at::Tensor loss = recipe_.weighLoss ? (recipe_.lossFactor * draws.weight) * mixed : recipe_.lossFactor * mixed;
  return {halfWeight * (withY - withoutY).pow(2).sum(1), second, loss};
}

Evaluation DiffusionEstimator::oracleReading(int64_t rows) {
  const TaskSampler::GaussianXSide side = ctx_.task->gaussianXSide();
  const NoiseDraws draws = recipe_.schedule->draw(rows * recipe_.network.draws, ctx_.noise,
                                                  at::TensorOptions().dtype(at::kDouble).device(ctx_.device));
  const at::Tensor gap = gaussianNoiseMmseGap(draws.g, side.marginal, side.givenY);
  const double v = (0.5 * draws.weight * gap).mean().item<double>();
  const double exact = gaussianImmseIntegral(side.marginal, side.givenY, recipe_.schedule->lowestLogSnr(),
                                             recipe_.schedule->highestLogSnr());
  return {v, {{recipe_.oracleName, v}, {recipe_.exactName, exact}}};
}

Evaluation DiffusionEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  if (recipe_.network.oracle) return oracleReading(batch.y.size(0));
  const at::Tensor x = criticInput(batch);
  at::Generator draws = readingGenerator(x, batch.y, ctx_.device);
  const Integrands i = integrands(x, batch.y, recipe_.network.draws, draws);
  const double orthogonal = i.orthogonal.mean().item<double>(), second = i.second.mean().item<double>();
  const QString read = QStringLiteral(" (the reading)");
  return {recipe_.readsSecond ? second : orthogonal,
          {{recipe_.orthogonalName + (recipe_.readsSecond ? QString() : read), orthogonal},
           {recipe_.secondName + (recipe_.readsSecond ? read : QString()), second}},
          i.loss.mean().item<double>()};
}

}  // namespace milab
