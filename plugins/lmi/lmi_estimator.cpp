#include "lmi_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "knn/ksg.h"
#include "knn/ksg_rows.h"
#include "method/score_matrix_estimator.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

constexpr double kClip = 10;       // the reference clips its standardised columns to [-10, 10]
constexpr double kAdamEps = 1e-7;  // the reference's Adam (Keras's epsilon)

at::Tensor clipped(const at::Tensor& t) { return t.clamp(-kClip, kClip); }

// log det of the correlation matrix of a [n, d] tensor's columns (with a 1e-6 ridge: a constant latent would make it
// singular), on its device.
at::Tensor logDetCorrelation(const at::Tensor& z) {
  const at::Tensor centred = z - z.mean(0);
  const at::Tensor covariance = at::matmul(centred.t(), centred) / double(z.size(0));
  const at::Tensor sd = covariance.diagonal().clamp_min(1e-12).sqrt();
  const at::Tensor correlation = covariance / at::outer(sd, sd) + 1e-6 * at::eye(z.size(1), z.options());
  return at::logdet(correlation);
}

}  // namespace

at::Tensor gaussianMiOfLatents(const at::Tensor& zx, const at::Tensor& zy) {
  return 0.5 * (logDetCorrelation(zx) + logDetCorrelation(zy) - logDetCorrelation(at::cat({zx, zy}, 1)));
}

LmiEstimator::LmiEstimator(const EstimatorContext& ctx)
    : options_(lmiOptions(ctx.params)),
      noise_(ctx.noise),
      cancelled_(ctx.cancelled),
      tieBreaker_(ctx.generator.current_seed() ^ 0x6c6d69u) {
  const int64_t dimX = criticInputDim(*ctx.task), dimY = ctx.task->dimY();
  at::Generator init = ctx.generator;  // the run's own: the networks' initial weights
  model_ = CrossAutoencoders(dimX, dimY, options_.latentOf(dimX), options_.latentOf(dimY), options_.hidden, init);
  model_->to(ctx.device);
  adam_ = std::make_unique<FlatAdam>(model_->parameters(), options_.lr, 0.9, 0.999, kAdamEps);
}

LmiEstimator::~LmiEstimator() = default;

CrossAutoencodersImpl::Weights LmiEstimator::weights() const {
  return {options_.crossWeight, options_.selfWeight, options_.dropout};
}

CrossAutoencodersImpl::Latents LmiEstimator::latents(const Batch& batch) {
  c10::NoGradGuard noGrad;
  return model_->encode(clipped(criticInput(batch)), clipped(batch.y));
}

double LmiEstimator::readLatents(const at::Tensor& zx, const at::Tensor& zy) {
  SampleMatrix a = samplesOfRows(zx), b = samplesOfRows(zy);
  breakTies(&a, &tieBreaker_, cancelled_);
  breakTies(&b, &tieBreaker_, cancelled_);
  return ksgMutualInformation(a, b, options_.k, cancelled_);
}

StepResult LmiEstimator::trainStep(const Batch& batch) {
  const at::Tensor x = clipped(criticInput(batch)), y = clipped(batch.y);
  const CrossAutoencodersImpl::Latents z = model_->encode(x, y);
  const at::Tensor loss = model_->loss(x, y, z, weights(), &noise_);  // dropout drawn where the networks run
  descend(*adam_, loss);
  // The step's reading: the Gaussian MI of this batch's latents as they were before the step, computed where the
  // networks run. KSG counts on the host, and a count every step would make a GPU wait on each.
  return {gaussianMiOfLatents(z.zx.detach(), z.zy.detach()), loss.detach()};
}

Evaluation LmiEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  const at::Tensor x = clipped(criticInput(batch)), y = clipped(batch.y);
  const CrossAutoencodersImpl::Latents z = model_->encode(x, y);
  const double v = readLatents(z.zx, z.zy);
  const double loss = model_->loss(x, y, z, weights(), nullptr).item<double>();
  return {v, {{"I_KSG of the latents", v}}, loss};
}

QString LmiPlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const TaskWidths w = criticInputWidths(task, taskParams);
  return lmiLatentRefusal(lmiOptions(params), w.x, w.y);
}

// The six networks' activations and gradients over a batch (about 16 bytes per row and unit: the forward's values,
// the backward's gradients and LeakyReLU's masks, in float), their weights with Adam's two moments, and KSG's read of
// read_rows latents in double (its copies and trees: about 200 bytes a row), over a 0.25 GB base. An estimate from
// the shapes, not fitted to a measurement.
MemoryNeed LmiPlugin::memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const LmiOptions o = lmiOptions(params);
  const TaskWidths w = taskWidths(task, taskParams);
  const double units = 6.0 * double(o.hidden) * 1.75 + 3.0 * double(w.x + w.y);
  const double weights = 6.0 * double(o.hidden) * (double(w.widest()) + double(o.hidden) * 0.75);
  const double bytes = 2.5e8 + 16.0 * double(o.batch) * units + 16.0 * weights + 200.0 * double(o.readRows);
  return {bytes, "batch",
          QStringLiteral("the autoencoders' activations over batch %1 x hidden %2").arg(o.batch).arg(o.hidden),
          "lower batch or hidden"};
}

MethodInfo LmiPlugin::info() const {
  MethodInfo i;
  i.id = "lmi";
  i.displayName = "LMI (KSG on cross-predictive latents)";
  i.family = "latent";
  i.summary =
      "autoencoders embed x and y into small latents, each trained to predict the other side too; KSG reads the "
      "latents' MI on held-out rows (a lower bound by data processing when KSG reads it right; neither bound as read)";
  i.params = lmiParamSpecs();
  i.lowerBound = false;
  i.selectsByHeldOutLoss = true;  // the autoencoders' held-out loss, as the reference stops and restores
  i.readsWholeHeldOut = true;     // KSG on every held-out row's latents, as the reference reads its validation half
  i.keepsOwnTraining = true;      // its autoencoders at their own lr, not a critic's
  return i;
}

std::unique_ptr<Estimator> LmiPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<LmiEstimator>(context);
}

}  // namespace milab
