// torch first: its headers must precede Qt's (see BUILD.md pitfalls).
#include <ATen/ATen.h>
#include <torch/optim/adam.h>

#include "demi/demi_plugin.h"

#include <cmath>

#include "method/critic_params.h"
#include "method/estimator.h"
#include "nn/mlp.h"

namespace milab {

namespace {

class DemiEstimator final : public Estimator {
 public:
  explicit DemiEstimator(const EstimatorContext& ctx)
      : half_(ctx.params.value("K").toInt() / 2), task_(ctx.task), gen_(ctx.generator) {
    const int64_t d = ctx.task->dim(), hidden = ctx.params.value("hidden").toInt(),
                  embed = ctx.params.value("embed").toInt();
    f_ = Mlp(2 * d, hidden, embed, gen_);
    g_ = Mlp(d, hidden, embed, gen_);
    f_->to(ctx.device);
    g_->to(ctx.device);
    std::vector<at::Tensor> params = f_->parameters();
    for (const at::Tensor& p : g_->parameters()) params.push_back(p);
    optimizer_ = std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(ctx.params.value("lr").toDouble()));
  }

  // The unconditional term uses in-batch negatives, so the batch is its K/2 candidate set.
  int64_t batchSize() const override { return half_; }

  StepResult trainStep(const Batch& batch) override {
    const Terms t = terms(batch);
    const at::Tensor bound = t.unconditional + t.conditional;
    const at::Tensor loss = -bound;
    optimizer_->zero_grad();
    loss.backward();
    optimizer_->step();
    return {bound.item<double>(), loss.item<double>()};
  }

  Evaluation evaluate(const Batch& batch) override {
    const Terms t = terms(batch);
    const double u = t.unconditional.item<double>(), c = t.conditional.item<double>();
    return {u + c, {{"I_NCE(x';y)", u}, {"I_CNCE(x;y|x')", c}}};
  }

 private:
  struct Terms {
    at::Tensor unconditional, conditional;
  };

  Terms terms(const Batch& batch) {
    const at::Tensor fXp = f_->forward(at::cat({batch.xp, at::zeros_like(batch.x)}, 1));  // f([x', 0])
    const at::Tensor fBoth = f_->forward(at::cat({batch.xp, batch.x}, 1));               // f([x', x])
    const at::Tensor gY = g_->forward(batch.y);
    // I_NCE(x'; y): the other rows' y are the K/2 - 1 negatives from p(y).
    const at::Tensor unconditional = inBatchNce(fXp.matmul(gY.t()));
    // I_CNCE(x; y | x'): K/2 - 1 negatives per row from the true p(y | x'_i), positive in column 0.
    const at::Tensor yNeg = task_->sampleYGivenXp(batch.xp, half_ - 1, gen_);
    const at::Tensor positive = (fBoth * gY).sum(1, true);
    const at::Tensor negative = g_->dotWithRows(fBoth, yNeg);  // f([x',x]) . g(y_k), the cost of DEMI
    const at::Tensor conditional = firstColumnNce(at::cat({positive, negative}, 1));
    return {unconditional, conditional};
  }

  int64_t half_;
  const TaskSampler* task_;
  at::Generator gen_;
  Mlp f_{nullptr}, g_{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer_;
};

}  // namespace

MethodInfo DemiPlugin::info() const {
  MethodInfo i;
  i.id = "demi";
  i.displayName = "DEMI (ground-truth p(y|x'))";
  i.family = "decomposed";
  i.summary = "I_NCE(x';y) + I_CNCE(x;y|x') with K/2 candidates per term; never above 2 log(K/2)";
  i.params = criticParamSpecs(4);
  i.needsSubview = true;
  return i;
}

QString DemiPlugin::validate(const ParamMap& params, const TaskInfo& task) const {
  Q_UNUSED(task);
  const int K = params.value("K").toInt();
  if (K % 2 != 0)
    return QStringLiteral("K: must be an even integer in [4, 65536] for demi (K/2 candidates per term), got %1")
        .arg(K);
  return {};
}

QList<Ceiling> DemiPlugin::ceilings(const ParamMap& params) const {
  return {{"2 log(K/2)", 2.0 * std::log(params.value("K").toDouble() / 2.0)}};
}

std::unique_ptr<Estimator> DemiPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DemiEstimator>(context);
}

}  // namespace milab
