#include "flow_mi_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "coupling_flow.h"
#include "method/score_matrix_estimator.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "tasks/task_catalog.h"

namespace milab {

at::Tensor gaussianMiOfCorrelations(const at::Tensor& rho) {
  const at::Tensor r = rho.clamp(-1 + 1e-6, 1 - 1e-6);
  return -0.5 * at::log1p(-r * r).sum();
}

at::Tensor columnCorrelations(const at::Tensor& a, const at::Tensor& b) {
  const at::Tensor ca = a - a.mean(0), cb = b - b.mean(0);
  return (ca * cb).mean(0) / ((ca * ca).mean(0) * (cb * cb).mean(0)).sqrt().clamp_min(1e-12);
}

struct FlowMiEstimator::Model {
  CouplingFlow fx{nullptr}, fy{nullptr};
  at::Tensor atanhRho;  // rho_i = tanh of it, [paired]
  std::unique_ptr<FlatAdam> adam;
};

FlowMiEstimator::FlowMiEstimator(const EstimatorContext& ctx)
    : options_(flowMiOptions(ctx.params)),
      gen_(ctx.generator),
      paired_(std::min<int64_t>(criticInputDim(*ctx.task), ctx.task->dimY())),
      model_(std::make_unique<Model>()) {
  model_->fx = CouplingFlow(criticInputDim(*ctx.task), options_.depth, options_.width, gen_);
  model_->fy = CouplingFlow(ctx.task->dimY(), options_.depth, options_.width, gen_);
  model_->fx->to(ctx.device);
  model_->fy->to(ctx.device);
  model_->atanhRho = at::zeros({paired_}, at::TensorOptions().device(ctx.device)).requires_grad_();
  std::vector<at::Tensor> parameters = model_->fx->parameters();
  for (const at::Tensor& p : model_->fy->parameters()) parameters.push_back(p);
  parameters.push_back(model_->atanhRho);
  model_->adam = std::make_unique<FlatAdam>(parameters, options_.lr);
}

FlowMiEstimator::~FlowMiEstimator() = default;

FlowMiEstimator::Latents FlowMiEstimator::latents(const Batch& batch) {
  auto [xi, ldx] = model_->fx->forward(criticInput(batch));
  auto [eta, ldy] = model_->fy->forward(batch.y);
  return {xi, eta, ldx + ldy};
}

at::Tensor FlowMiEstimator::negativeLogLikelihood(const Latents& l) const {
  // log N2(a, b; rho) = -log 2pi - 1/2 log(1 - rho^2) - (a^2 - 2 rho a b + b^2) / (2 (1 - rho^2)) per pair; the
  // unpaired coordinates standard normal.
  const at::Tensor rho = at::tanh(model_->atanhRho);
  const at::Tensor oneMinus = 1 - rho * rho;
  const at::Tensor a = l.xi.narrow(1, 0, paired_), b = l.eta.narrow(1, 0, paired_);
  const double log2pi = std::log(2 * M_PI);
  at::Tensor logP = (-log2pi - 0.5 * at::log(oneMinus) - (a * a - 2 * rho * a * b + b * b) / (2 * oneMinus)).sum(1);
  const int64_t restX = l.xi.size(1) - paired_, restY = l.eta.size(1) - paired_;
  if (restX > 0) logP = logP - 0.5 * (l.xi.narrow(1, paired_, restX).pow(2) + log2pi).sum(1);
  if (restY > 0) logP = logP - 0.5 * (l.eta.narrow(1, paired_, restY).pow(2) + log2pi).sum(1);
  return -(logP + l.logDet).mean();
}

at::Tensor FlowMiEstimator::reading(const Latents& l) const {
  return gaussianMiOfCorrelations(columnCorrelations(l.xi.narrow(1, 0, paired_), l.eta.narrow(1, 0, paired_)));
}

StepResult FlowMiEstimator::trainStep(const Batch& batch) {
  const Latents l = latents(batch);
  const at::Tensor loss = negativeLogLikelihood(l);
  at::Tensor estimate;
  {
    c10::NoGradGuard noGrad;  // the reading is no part of the loss
    estimate = reading(l);
  }
  descend(*model_->adam, loss);
  return {estimate, loss.detach()};
}

Evaluation FlowMiEstimator::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  const Latents l = latents(batch);
  const double v = reading(l).item<double>();
  const double learned = gaussianMiOfCorrelations(at::tanh(model_->atanhRho)).item<double>();
  return {v, {{"I of the latents (batch correlation)", v}, {"I of the learned rho", learned}}};
}

// The couplings' activations and their gradients: about 36 bytes per (row, layer, hidden unit) over 0.25 GB, fitted
// to the peak resident memory of two steps on gaussian2 (dim 2) at batch x depth x width = 4096 x 4 x 256 (0.37 GB),
// 16384 x 4 x 256 (0.80 GB) and 16384 x 8 x 512 (2.48 GB) (docs/user-guide.md, "Memory is checked"); the task's
// widths enter as the couplings' inputs and outputs.
MemoryNeed FlowMiPlugin::memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const FlowMiOptions o = flowMiOptions(params);
  const TaskWidths w = taskWidths(task, taskParams);
  return {2.5e8 + 36.0 * double(o.batch) * double(o.depth) * double(o.width + w.x + w.y), "batch",
          QStringLiteral("the flows' activations over batch %1 x depth %2 x width %3").arg(o.batch).arg(o.depth).arg(o.width),
          "lower batch, depth or width"};
}

MethodInfo FlowMiPlugin::info() const {
  MethodInfo i;
  i.id = "flow-mi";
  i.displayName = "Flow MI (normalizing flows to a Gaussian)";
  i.family = "generative";
  i.summary =
      "RealNVP flows on x and y trained by maximum likelihood so that the latents are jointly Gaussian with one "
      "correlation rho_i per pair; reads -1/2 sum log(1 - rho_i^2) of the latents (MI is invariant under the "
      "flows). Neither bound";
  i.params = flowMiParamSpecs();
  i.lowerBound = false;
  return i;
}

std::unique_ptr<Estimator> FlowMiPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<FlowMiEstimator>(context);
}

}  // namespace milab
