#include "doe/doe_family.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "doe/doe_options.h"
#include "method/density_options.h"
#include "method/estimator.h"
#include "method/score_matrix_estimator.h"
#include "nn/density_model.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"

namespace milab {

namespace {

class DoeEstimator final : public Estimator {
 public:
  DoeEstimator(const EstimatorContext& ctx, const DoeOptions& o)
      : task_(ctx.task), family_(o.family), batch_(o.density.batch), clip_(o.clip) {
    if (o.density.oracle) return;  // the task's exact densities
    at::Generator gen = ctx.generator;
    conditional_ = ConditionalDensity(criticInputDim(*task_), task_->dimY(), o.density.hidden, gen, o.shape);
    marginal_ = MarginalDensity(task_->dimY());
    conditional_->to(ctx.device);
    marginal_->to(ctx.device);
    std::vector<at::Tensor> all = conditional_->parameters();
    for (const at::Tensor& p : marginal_->parameters()) all.push_back(p);
    adam_ = std::make_unique<FlatAdam>(all, o.density.lr);
    parameters_ = {all};
  }

  int64_t batchSize() const override { return batch_; }

  StepResult trainStep(const Batch& batch) override {
    if (!started_) startMarginalAtMoments(batch.y);
    const auto [hY, hYgivenX] = crossEntropies(batch);
    // Read on this batch before the update, i.e. on samples the models have not been fitted to.
    const at::Tensor estimate = (hY - hYgivenX).detach();
    const at::Tensor loss = hY + hYgivenX;
    // One norm over both models' gradients, as the paper's clip_grad_norm_ over the DoE module's parameters.
    if (clip_ > 0)
      descendClipped(*adam_, loss, parameters_, clip_);
    else
      descend(*adam_, loss);
    return {estimate, loss};
  }

  Evaluation evaluate(const Batch& batch) override {
    c10::NoGradGuard noGrad;
    const auto [hY, hYgivenX] = crossEntropies(batch);
    const double h = hY.item<double>(), hc = hYgivenX.item<double>();
    // The loss both densities are fitted by, on held-out rows: what the finite-sample protocol selects them by.
    return {h - hc, {{"H+(Y)", h}, {"H+(Y|X)", hc}}, h + hc};
  }

 private:
  // H+(Y) and H+(Y|X) on this batch (with the oracle: the exact H(Y) and H(Y|X) up to Monte Carlo error).
  std::pair<at::Tensor, at::Tensor> crossEntropies(const Batch& batch) {
    if (!adam_) {
      const at::Tensor logPy = task_->logMarginalY(batch.y);
      return {-logPy.mean(), -(logPy + task_->pmi(batch.x, batch.xp, batch.y)).mean()};
    }
    const auto [mean, logScale] = conditional_->forward(criticInput(batch));
    return {-logDensity(family_, batch.y, marginal_->mean, marginal_->logScale).mean(),
            -logDensity(family_, batch.y, mean, logScale).mean()};
  }

  // q(y) has one mean and scale per dimension, each moved by about lr per Adam step, while q(y|x)'s are outputs
  // of many parameters and move much faster: started at N(0, 1)'s logistic fit or anywhere else, q(y) would
  // trail q(y|x) for hundreds of steps and the difference would read as MI on independent data all that time.
  // So q(y) starts at the first batch's moments: the method-of-moments fit.
  void startMarginalAtMoments(const at::Tensor& y) {
    c10::NoGradGuard noGrad;
    const at::Tensor sd = y.std(0).clamp_min(1e-6);
    // A logistic law's standard deviation is s pi / sqrt(3).
    const at::Tensor scale = family_ == DensityFamily::Gaussian ? sd : sd * (std::sqrt(3.0) / M_PI);
    marginal_->mean.copy_(y.mean(0));
    marginal_->logScale.copy_(scale.log());
    started_ = true;
  }

  const TaskSampler* task_;
  DensityFamily family_;
  bool started_ = false;
  int64_t batch_;
  double clip_;                                      // 0: no clipping
  std::vector<std::vector<at::Tensor>> parameters_;  // one clipping group: every trained parameter
  ConditionalDensity conditional_{nullptr};
  MarginalDensity marginal_{nullptr};
  std::unique_ptr<FlatAdam> adam_;  // null for the oracle
};

}  // namespace

DoePlugin::DoePlugin(QString id, QString displayName, QString fixedFamily)
    : id_(std::move(id)), displayName_(std::move(displayName)), fixedFamily_(std::move(fixedFamily)) {}

MethodInfo DoePlugin::info() const {
  MethodInfo i;
  i.id = id_;
  i.displayName = displayName_;
  i.family = "difference of entropies";
  i.summary = QStringLiteral(
                  "H+(Y) - H+(Y|X): cross entropies of %1 q(y) and q(y|x) fitted by maximum likelihood; neither an "
                  "upper nor a lower bound, no log K ceiling (McAllester & Stratos, 2020)")
                  .arg(fixedFamily_.isEmpty() ? "factorised" : fixedFamily_);
  i.params = densityModelParamSpecs("the task's exact p(y) and p(y|x): the true MI up to Monte Carlo error");
  // The DoE paper's own configuration (karlstratos/doe's README: doe 18.38 at I = 18.41, dim 128, rho 0.5,
  // N = 128, 3000 steps) as the defaults: a tanh layer of 128 units with U(+-0.05) weights, Adam at 3e-4, the
  // gradient norm clipped at 10. (The earlier ReLU layer reads far lower there: docs/methods.md.)
  const DoeOptions d;
  for (ParamSpec& p : i.params) {
    if (p.name == "hidden") {
      p.defaultValue = d.density.hidden;
      p.help = "hidden units of the MLP of q(y|x)";
    }
    if (p.name == "lr") p.defaultValue = d.density.lr;
  }
  i.params << ParamSpec::choice("activation", {"tanh", "relu"}, d.shape.tanh ? "tanh" : "relu",
                                "the hidden layer's activation of q(y|x)")
           << ParamSpec::real("init", d.shape.initRange, 0, 10,
                              "weights of q(y|x) drawn from U(-init, init); 0: PyTorch's default (weights and biases "
                              "U(+-1/sqrt(fan_in)))")
           << ParamSpec::real("clip", d.clip, 0, 1e6,
                              "the gradient's norm is clipped to this before each step; 0: never");
  if (fixedFamily_.isEmpty())
    i.params << ParamSpec::choice("family", {"gaussian", "logistic"},
                                  d.family == DensityFamily::Gaussian ? "gaussian" : "logistic",
                                  "the law of q(y) and q(y|x) per dimension (a wrong one biases the reading)");
  i.lowerBound = false;
  // Neither bound, but two densities fitted by likelihood: the held-out cross-entropies say which fit is better.
  i.selectsByHeldOutLoss = true;
  i.oracleNeedsDensities = true;
  return i;
}

MemoryNeed DoePlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const DensityOptions o = DensityOptions::from(params);
  return o.oracle ? MemoryNeed{} : densityModelNeed(o);
}

std::unique_ptr<Estimator> DoePlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DoeEstimator>(context, DoeOptions::from(context.params, fixedFamily_));
}

}  // namespace milab
