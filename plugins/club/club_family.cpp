#include "club/club_family.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "method/density_options.h"
#include "method/estimator.h"
#include "method/score_matrix_estimator.h"
#include "nn/density_model.h"
#include "nn/derangement.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"
#include "tasks/task.h"

namespace milab {

namespace {

class ClubEstimator final : public Estimator {
 public:
  ClubEstimator(const EstimatorContext& ctx, bool sampled)
      : task_(ctx.task),
        gen_(ctx.generator),
        noise_(ctx.noise),
        batch_(DensityOptions::from(ctx.params).batch),
        sampled_(sampled) {
    const DensityOptions o = DensityOptions::from(ctx.params);
    if (o.oracle) return;  // q is the task's exact p(y|x)
    q_ = ConditionalDensity(criticInputDim(*task_), task_->dimY(), o.hidden, gen_);
    q_->to(ctx.device);
    adam_ = std::make_unique<FlatAdam>(q_->parameters(), o.lr);
  }

  int64_t batchSize() const override { return batch_; }

  StepResult trainStep(const Batch& batch) override {
    const Terms t = terms(batch);
    const at::Tensor estimate = (t.joint - t.product).detach();  // before the update: fresh samples
    const at::Tensor loss = -t.joint;                            // q is fitted by likelihood, not by the bound
    descend(*adam_, loss);
    return {estimate, loss};
  }

  Evaluation evaluate(const Batch& batch) override {
    c10::NoGradGuard noGrad;
    const Terms t = terms(batch);
    const double joint = t.joint.item<double>(), product = t.product.item<double>();
    // The loss q is fitted by, on held-out rows: what the finite-sample protocol selects q by (selectsByHeldOutLoss).
    return {joint - product, {{"E_joint log q(y|x)", joint}, {"E_x E_y log q(y|x)", product}}, -joint};
  }

 private:
  struct Terms {
    at::Tensor joint, product;  // the two expectations of log q(y|x)
  };

  Terms terms(const Batch& batch) {
    const at::Tensor xs = criticInput(batch);
    // club-sample pairs each x_i with the y of one other row (a derangement: never its own, which would pull the
    // marginal term toward the joint one), drawn where the batch is (EstimatorContext::noise).
    const at::Tensor perm = sampled_ ? randomDerangement(batch.y.size(0), noise_, batch.y.options()) : at::Tensor();
    if (!adam_) {
      const at::Tensor logPy = task_->logMarginalY(batch.y);  // [B]
      const at::Tensor joint = (logPy + task_->pmi(batch.x, batch.xp, batch.y)).mean();
      if (sampled_) {
        const at::Tensor y = batch.y.index_select(0, perm);
        return {joint, (logPy.index_select(0, perm) + task_->pmi(batch.x, batch.xp, y)).mean()};
      }
      return {joint, (oraclePmiMatrix(*task_, batch) + logPy.unsqueeze(0)).mean()};  // [x_i, y_j]
    }
    const auto [mean, logScale] = q_->forward(xs);
    const at::Tensor joint = logDensity(DensityFamily::Gaussian, batch.y, mean, logScale).mean();
    if (sampled_)
      return {joint, logDensity(DensityFamily::Gaussian, batch.y.index_select(0, perm), mean, logScale).mean()};
    return {joint, gaussianMeanLogDensityOverPairs(batch.y, mean, logScale)};
  }

  const TaskSampler* task_;
  at::Generator gen_;    // the networks' initialisation
  at::Generator noise_;  // the permutations, on the run's device
  int64_t batch_;
  bool sampled_;
  ConditionalDensity q_{nullptr};
  std::unique_ptr<FlatAdam> adam_;  // null for the oracle
};

}  // namespace

ClubPlugin::ClubPlugin(QString id, QString displayName, bool sampled)
    : id_(std::move(id)), displayName_(std::move(displayName)), sampled_(sampled) {}

MethodInfo ClubPlugin::info() const {
  MethodInfo i;
  i.id = id_;
  i.displayName = displayName_;
  i.family = "upper bound";
  i.summary = sampled_ ? QStringLiteral(
                             "CLUB with one random negative pairing per row: E_joint[log q(y|x)] - "
                             "E[log q(y'|x)]; an upper bound in expectation when q(y|x) is good")
                       : QStringLiteral(
                             "CLUB: E_joint[log q(y|x)] - E_x E_y[log q(y|x)] over all in-batch pairs; an "
                             "upper bound in expectation when q(y|x) is good (Cheng et al., 2020)");
  i.params = densityModelParamSpecs("the task's exact p(y|x): an upper bound, above the truth by a known gap");
  i.lowerBound = false;
  i.upperBound = true;
  // With a learnt q the reading is a bound only while q is close to p(y|x), and a q fitted too closely to the training
  // rows reads high: held-out readings are told apart by q's held-out likelihood (method_plugin.h).
  i.selectsByHeldOutLoss = true;
  i.oracleNeedsDensities = true;
  return i;
}

MemoryNeed ClubPlugin::memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const DensityOptions o = DensityOptions::from(params);
  if (!o.oracle) return densityModelNeed(o);
  if (sampled_) return {};  // one pairing per row: batch x dim
  const double batch = o.batch;
  return oraclePairsNeed(batch * batch, task, taskParams, "batch", QStringLiteral("batch x batch"));
}

std::unique_ptr<Estimator> ClubPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<ClubEstimator>(context, sampled_);
}

ReadingLimits ClubPlugin::readingLimits(const ParamMap& params, const TaskModel& task) const {
  ReadingLimits l = MethodPlugin::readingLimits(params, task);
  const std::optional<double> oracle = task.knownValue(TaskModel::kClubOracleValue);
  if (oracle && 3 * *oracle > l.high) {
    l.high = 3 * *oracle;
    l.highWhy = QStringLiteral("above 3 x the %1 nats CLUB reads with the true p(y|x)").arg(*oracle, 0, 'g', 6);
  }
  return l;
}

}  // namespace milab
