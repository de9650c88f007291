#include "nce-density/nce_density_plugin.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <cmath>

#include "method/estimator.h"
#include "nce-density/nce_density_options.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "tasks/task.h"

namespace milab {

namespace {

// Samples per pass of noise_chunk values, a multiple of 16 (see descendInPasses).
int64_t noiseSamplesPerPass(double chunkValues, int64_t dimY) {
  return std::max<int64_t>(16, int64_t(chunkValues) / std::max<int64_t>(1, dimY) / 16 * 16);
}

// The model: log p_m(y) = -1/2 sum_j lambda_j (y_j - mu_j)^2 + c, lambda_j = e^rho_j, with c a free parameter
// (Gutmann & Hyvarinen 2012). Its total mass is known in closed form, log Z = c + 1/2 sum_j log(2 pi / lambda_j),
// so the lab can show NCE driving it to 0 without ever computing it during training. Starting from c = 0, the
// model's initial log Z is d/2 log(2 pi), far from normalised. Adam's iterates jitter around the NCE solution
// by about the learning rate, so the final reading uses their exponential average over the last ~100 steps
// (Polyak-Ruppert averaging); the training curve shows the raw iterates.
class NceDensityEstimator final : public Estimator {
 public:
  explicit NceDensityEstimator(const EstimatorContext& ctx)
      : NceDensityEstimator(ctx, NceDensityOptions::from(ctx.params)) {}
  NceDensityEstimator(const EstimatorContext& ctx, const NceDensityOptions& o)
      : ctx_(ctx),
        batch_(o.batch),
        ratio_(o.noiseRatio),
        noiseScale_(o.noiseScale),
        perPass_(noiseSamplesPerPass(o.noiseChunk, ctx.task->dimY())) {
    const auto options = at::TensorOptions().dtype(at::kFloat).device(ctx.device);
    mu_ = at::zeros({ctx.task->dimY()}, options).requires_grad_();
    rho_ = at::zeros({ctx.task->dimY()}, options).requires_grad_();
    c_ = at::zeros({1}, options).requires_grad_();
    averageRho_ = at::zeros_like(rho_);
    averageC_ = at::zeros_like(c_);
    adam_ = std::make_unique<FlatAdam>(std::vector<at::Tensor>{mu_, rho_, c_}, o.lr);
  }

  int64_t batchSize() const override { return batch_; }

  StepResult trainStep(const Batch& batch) override {
    const int64_t noiseCount = batch_ * ratio_;
    at::Tensor loss;
    if (noiseCount <= perPass_) {
      const at::Tensor noise = sampleNoise(noiseCount);
      // Posterior log-odds that a sample is data: h = log p_m(y) - log(nu p_n(y)).
      const at::Tensor hData = logOdds(batch.y);
      const at::Tensor hNoise = logOdds(noise);
      loss = at::softplus(-hData).mean() + double(ratio_) * at::softplus(hNoise).mean();
      descend(*adam_, loss);
    } else {
      loss = descendInPasses(batch.y, noiseCount);
    }
    {
      c10::NoGradGuard noGrad;
      const double keep = averaged_++ == 0 ? 0.0 : kAveraging;  // the first iterate starts the average
      averageRho_.mul_(keep).add_(rho_, 1.0 - keep);
      averageC_.mul_(keep).add_(c_, 1.0 - keep);
    }
    return {logMass(rho_, c_), loss};
  }

  Evaluation evaluate(const Batch&) override {
    c10::NoGradGuard noGrad;
    const double logZ = logMass(averageRho_, averageC_).item<double>(), c = averageC_.item<double>();
    return {logZ, {{"log Z (model mass)", logZ}, {"c (learned)", c}, {"-log Z(energy)", c - logZ}}};
  }

 private:
  // The same step over noise drawn and differentiated noise_chunk values at a time, the gradients accumulating in
  // Adam's buffer: a step of batch x noise_ratio = 2^26 samples took a minute and gigabytes in one pass; in passes
  // its memory is bounded and a stop is checked between them. Each pass draws a multiple of 16 samples, so the
  // CPU's normal sampler (uniforms for the whole tensor, then Box-Muller per 16) gives the very values one pass
  // would; only the sum's order differs.
  at::Tensor descendInPasses(const at::Tensor& y, int64_t noiseCount) {
    adam_->zero_grad();
    at::Tensor noiseLoss = at::zeros({}, rho_.options().requires_grad(false));
    for (int64_t start = 0; start < noiseCount; start += perPass_) {
      if (ctx_.cancelled()) throw EstimatorCancelled();
      const at::Tensor noise = sampleNoise(std::min(perPass_, noiseCount - start));
      const at::Tensor pass = at::softplus(logOdds(noise)).sum() * (double(ratio_) / double(noiseCount));
      pass.backward();
      noiseLoss += pass.detach();
    }
    const at::Tensor dataLoss = at::softplus(-logOdds(y)).mean();
    dataLoss.backward();
    adam_->step();
    return dataLoss.detach() + noiseLoss;
  }
  at::Tensor logOdds(const at::Tensor& y) const { return logModel(y) - logNoise(y) - std::log(double(ratio_)); }
  at::Tensor logModel(const at::Tensor& y) const { return -0.5 * (rho_.exp() * (y - mu_).pow(2)).sum(1) + c_; }
  at::Tensor logNoise(const at::Tensor& y) const {
    const double s2 = noiseScale_ * noiseScale_;
    return -0.5 * y.pow(2).sum(1) / s2 - 0.5 * y.size(1) * std::log(2 * M_PI * s2);
  }
  at::Tensor sampleNoise(int64_t n) {
    return at::randn({n, ctx_.task->dimY()}, ctx_.noise, at::TensorOptions().dtype(at::kFloat).device(ctx_.device)) *
           noiseScale_;
  }
  static at::Tensor logMass(const at::Tensor& rho, const at::Tensor& c) {
    c10::NoGradGuard noGrad;
    return c.sum() + 0.5 * (std::log(2 * M_PI) - rho).sum();
  }

  static constexpr double kAveraging = 0.99;

  EstimatorContext ctx_;
  int64_t batch_, ratio_;
  double noiseScale_;
  int64_t perPass_;  // noise samples per pass of a step
  at::Tensor mu_, rho_, c_;
  at::Tensor averageRho_, averageC_;  // exponential averages of the iterates
  int64_t averaged_ = 0;
  std::unique_ptr<FlatAdam> adam_;
};

}  // namespace

MethodInfo NceDensityPlugin::info() const {
  MethodInfo i;
  i.id = "nce-density";
  i.displayName = "NCE density model (Gutmann-Hyvarinen)";
  i.family = "density";
  i.summary =
      "fits an unnormalised Gaussian model of p(y) against N(0, noise_scale^2) noise; reports the model's "
      "log total mass, which NCE drives to 0";
  const NceDensityOptions d;
  i.params = {
      ParamSpec::integer("batch", d.batch, 2, 65536, "data samples of y per step"),
      ParamSpec::integer("noise_ratio", d.noiseRatio, 1, 1024, "noise samples per data sample (nu)"),
      ParamSpec::real("noise_scale", d.noiseScale, 0.0, 100.0, "standard deviation of the Gaussian noise law", true,
                      false),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("noise_chunk", int(d.noiseChunk), 1024, 1 << 28,
                         "noise values (samples x dimension) drawn and differentiated per pass of a step: bounds its "
                         "memory at about 24 bytes each; a stop is checked between passes"),
  };
  i.target = Target::LogNormaliser;
  i.lowerBound = false;
  return i;
}

MemoryNeed NceDensityPlugin::memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  // A pass holds its noise samples of y and about five float copies of them for its backward: 24 bytes per (noise
  // sample, dimension) over 0.3 GB, fitted to peak memory measured on one step in one pass at batch 65536
  // (docs/user-guide.md, "Memory is checked"; docs/speed.md, "Memory"). Passes bound it by noise_chunk.
  const double dimY = taskDimY(task, taskParams);
  const NceDensityOptions o = NceDensityOptions::from(params);
  const double noise = double(o.batch) * o.noiseRatio;
  const double perPass = std::min<double>(noise, noiseSamplesPerPass(o.noiseChunk, dimY));
  return {3e8 + 24 * perPass * dimY, "noise_chunk",
          QStringLiteral("a pass over %1 of its batch x noise_ratio = %2 noise samples of dimension %3")
              .arg(perPass, 0, 'f', 0)
              .arg(noise, 0, 'f', 0)
              .arg(dimY),
          "lower noise_chunk"};
}

QList<Ceiling> NceDensityPlugin::ceilings(const ParamMap&) const { return {}; }

ReadingLimits NceDensityPlugin::readingLimits(const ParamMap&, const TaskModel& task) const {
  const double start = 0.5 * task.dimY() * std::log(2 * M_PI), half = 0.5 * start;
  const QString why =
      QStringLiteral("|log Z| above %1, half of its start d/2 log(2 pi) = %2: NCE did not get halfway to 0")
          .arg(half, 0, 'f', 2)
          .arg(start, 0, 'f', 2);
  return {-half, why, half, why};
}

std::unique_ptr<Estimator> NceDensityPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<NceDensityEstimator>(context);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_nce_density_plugin.cpp"
