#include "method/score_matrix_estimator.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "method/critic_options.h"
#include "nn/joint_critic.h"
#include "nn/separable_critic.h"

namespace milab {

at::Tensor criticInput(const Batch& batch) { return batch.xp.defined() ? at::cat({batch.x, batch.xp}, 1) : batch.x; }

int64_t criticInputDim(const TaskSampler& task) { return task.criticInputDim(); }

at::Tensor oraclePmiMatrix(const TaskSampler& task, const Batch& batch) {
  const at::Tensor xp = batch.xp.defined() ? batch.xp.unsqueeze(1) : at::Tensor();
  return task.pmi(batch.x.unsqueeze(1), xp, batch.y.unsqueeze(0));
}

ScoreMatrixEstimator::ScoreMatrixEstimator(const EstimatorContext& ctx, ScoreMatrixBound bound)
    : ScoreMatrixEstimator(ctx, CriticOptions::from(ctx.params), std::move(bound)) {}

ScoreMatrixEstimator::ScoreMatrixEstimator(const EstimatorContext& ctx, const CriticOptions& o,
                                           ScoreMatrixBound bound)
    : K_(o.K),
      oracle_(o.oracle),
      task_(ctx.task),
      gen_(ctx.generator),
      bound_(std::move(bound)) {
  if (oracle_) return;
  if (o.joint)
    joint_ = std::make_unique<JointCritic>(criticInputDim(*task_), task_->dimY(), o.layers, o.lr, ctx.device, gen_);
  else
    critic_ = std::make_unique<SeparableCritic>(criticInputDim(*task_), task_->dimY(), o.hidden, o.embed, o.lr,
                                                ctx.device, gen_);
}

ScoreMatrixEstimator::~ScoreMatrixEstimator() = default;

at::Tensor ScoreMatrixEstimator::scores(const Batch& batch) {
  if (critic_) return critic_->scores(criticInput(batch), batch.y);
  if (joint_) return joint_->scores(criticInput(batch), batch.y);
  return oraclePmiMatrix(*task_, batch) + bound_.oracleShift;
}

StepResult ScoreMatrixEstimator::trainStep(const Batch& batch) {
  const at::Tensor x = criticInput(batch);
  if (bound_.objectiveIsInBatchNce) {
    const at::Tensor objective =
        critic_ ? critic_->trainInBatchNce(x, batch.y) : joint_->trainOnScores(x, batch.y, std::ref(inBatchNce_));
    return {objective, -StepReading(objective)};
  }
  at::Tensor reported;  // read while the scores are alive: they are the critic's buffer
  const ScoresObjective objective = [this, &reported](const at::Tensor& s) {
    if (bound_.value) {
      c10::NoGradGuard noGrad;
      reported = bound_.value(s);
    }
    return scoresBackwardByAutograd(bound_.objective, s);
  };
  const at::Tensor value =
      critic_ ? critic_->trainOnScores(x, batch.y, objective) : joint_->trainOnScores(x, batch.y, objective);
  return {reported.defined() ? reported : value, -StepReading(value)};
}

Evaluation ScoreMatrixEstimator::evaluate(const Batch& batch) {
  // InfoNCE through the joint critic reads row by row (a whole held-out half is 25 million pairs at N = 5,000).
  const bool rowByRow = joint_ && bound_.objectiveIsInBatchNce && !bound_.value;
  const double v = (rowByRow ? joint_->inBatchNce(criticInput(batch), batch.y) : value(scores(batch))).item<double>();
  return {v, {{bound_.name, v}}};
}

at::Tensor ScoreMatrixEstimator::pairScores(const at::Tensor& x, const at::Tensor& y) {
  if (joint_) return joint_->pairScores(x, y);
  return (critic_->embedX(x) * critic_->embedY(y)).sum(1);
}

double ScoreMatrixEstimator::everyPairReading(const Batch& heldOut) {
  const at::Tensor x = criticInput(heldOut);
  const int64_t n = x.size(0);
  ScoreRows rows;
  if (joint_) {
    rows = [&](int64_t first, int64_t count) { return joint_->scores(x.narrow(0, first, count), heldOut.y); };
  } else {
    const at::Tensor embeddedY = critic_->embedY(heldOut.y).t();  // once for every block
    rows = [&, embeddedY](int64_t first, int64_t count) {
      return critic_->embedX(x.narrow(0, first, count)).matmul(embeddedY);
    };
  }
  return bound_.onEveryPair(everyPairScores(n, rows, everyPairBlockRows(n)));
}

double ScoreMatrixEstimator::onePermutationReading(const Batch& heldOut) {
  const at::Tensor x = criticInput(heldOut);
  const at::Tensor shuffled =
      at::randperm(heldOut.y.size(0), gen_, at::TensorOptions(at::kLong).device(gen_.device())).to(heldOut.y.device());
  return bound_.onOnePermutation(pairScores(x, heldOut.y), pairScores(x, heldOut.y.index_select(0, shuffled)))
      .item<double>();
}

Evaluation ScoreMatrixEstimator::evaluateWhole(const Batch& heldOut) {
  if (oracle_ || (!bound_.onEveryPair && !bound_.onOnePermutation)) return evaluate(heldOut);
  const double v = bound_.onEveryPair ? everyPairReading(heldOut) : onePermutationReading(heldOut);
  return {v, {{bound_.name, v}}};
}

}  // namespace milab
