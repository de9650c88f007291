// torch first: its headers must precede Qt's (see BUILD.md pitfalls).
#include <ATen/ATen.h>
#include <torch/optim/adam.h>

#include "infonce/infonce_plugin.h"

#include <cmath>

#include "method/critic_params.h"
#include "method/estimator.h"
#include "nn/mlp.h"

namespace milab {

namespace {

class InfoNceEstimator final : public Estimator {
 public:
  explicit InfoNceEstimator(const EstimatorContext& ctx)
      : K_(ctx.params.value("K").toInt()), subview_(ctx.task->hasSubview()), gen_(ctx.generator) {
    const int64_t d = ctx.task->dim(), hidden = ctx.params.value("hidden").toInt(),
                  embed = ctx.params.value("embed").toInt();
    f_ = Mlp(subview_ ? 2 * d : d, hidden, embed, gen_);
    g_ = Mlp(d, hidden, embed, gen_);
    f_->to(ctx.device);
    g_->to(ctx.device);
    std::vector<at::Tensor> params = f_->parameters();
    for (const at::Tensor& p : g_->parameters()) params.push_back(p);
    optimizer_ = std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(ctx.params.value("lr").toDouble()));
  }

  int64_t batchSize() const override { return K_; }  // in-batch negatives: the batch is the contrastive set

  StepResult trainStep(const Batch& batch) override {
    const at::Tensor bound = inBatchNce(scores(batch));
    const at::Tensor loss = -bound;
    optimizer_->zero_grad();
    loss.backward();
    optimizer_->step();
    return {bound.item<double>(), loss.item<double>()};
  }

  Evaluation evaluate(const Batch& batch) override {
    const double value = inBatchNce(scores(batch)).item<double>();
    return {value, {{"I_NCE", value}}};
  }

 private:
  at::Tensor scores(const Batch& batch) {
    const at::Tensor xs = subview_ ? at::cat({batch.x, batch.xp}, 1) : batch.x;
    return f_->forward(xs).matmul(g_->forward(batch.y).t());
  }

  int64_t K_;
  bool subview_;
  at::Generator gen_;
  Mlp f_{nullptr}, g_{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer_;
};

}  // namespace

MethodInfo InfoNcePlugin::info() const {
  MethodInfo i;
  i.id = "infonce";
  i.displayName = "InfoNCE";
  i.family = "contrastive";
  i.summary = "I_NCE with in-batch negatives from p(y); critic f([x,x'])^T g(y); never above log K";
  i.params = criticParamSpecs(2);
  return i;
}

QList<Ceiling> InfoNcePlugin::ceilings(const ParamMap& params) const {
  return {{"log K", std::log(params.value("K").toDouble())}};
}

std::unique_ptr<Estimator> InfoNcePlugin::create(const EstimatorContext& context) const {
  return std::make_unique<InfoNceEstimator>(context);
}

}  // namespace milab
