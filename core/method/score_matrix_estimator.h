#pragma once
// The shape shared by the classic comparators (NWJ, MINE, JS, SMILE, ...): a [K, K] score matrix of in-batch
// pairs (joint on the diagonal) from the critic (separable f(x) . g(y), or joint T([x, y]) over every pair), one
// objective to train it and one value to report.
// With critic = oracle the scores are the task's analytic PMI shifted by the bound's optimal offset, and
// nothing is trained: the best value that bound reaches at this K.
#include <functional>
#include <memory>

#include "method/estimator.h"
#include "nn/every_pair_scores.h"
#include "nn/in_batch_nce_backward.h"

namespace milab {

class JointCritic;
class SeparableCritic;
struct CriticOptions;

struct ScoreMatrixBound {
  QString name;  // the reported term, e.g. "I_NCE"
  // What the optimiser maximises, from the scores (may carry state, e.g. MINE's moving average).
  std::function<at::Tensor(const at::Tensor& scores)> objective;
  // What is reported, from the scores. Empty when it is the objective itself, a stateless bound (InfoNCE, NWJ): a
  // training step then reads it off the objective instead of computing the bound twice.
  std::function<at::Tensor(const at::Tensor& scores)> value;
  // The optimal critic of this bound is PMI + oracleShift (NWJ: 1).
  double oracleShift = 0;
  // The objective is inBatchNce itself (InfoNCE): a learned critic then trains with its gradient at the scores in
  // closed form (nn/in_batch_nce_backward; other bounds': by autograd on the scores alone).
  bool objectiveIsInBatchNce = false;
  // How a whole held-out part is read (held_out = whole), as bmi reads it; both empty: the bound on the n x n score
  // matrix (InfoNCE, with its log n cap).
  // onEveryPair (bmi's NWJ and DV): from the joint pairs' mean score and the log-mean-exp over every off-diagonal
  // pair, summed a block of rows at a time (nn/every_pair_scores.h).
  std::function<double(const EveryPairScores&)> onEveryPair;
  // onOnePermutation (bmi's MINE): from the critic on the n pairs (x_i, y_i) and on (x_i, y_perm(i)) for one
  // permutation, drawn from the estimator's generator.
  std::function<at::Tensor(const at::Tensor& joint, const at::Tensor& marginal)> onOnePermutation;
};

class ScoreMatrixEstimator final : public Estimator {
 public:
  // ctx.params: K, lr, hidden, embed, critic (learned|joint|oracle), layers (joint).
  ScoreMatrixEstimator(const EstimatorContext& ctx, ScoreMatrixBound bound);
  ~ScoreMatrixEstimator() override;

  int64_t batchSize() const override { return K_; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;
  Evaluation evaluateWhole(const Batch& heldOut) override;

 private:
  at::Tensor scores(const Batch& batch);
  at::Tensor pairScores(const at::Tensor& x, const at::Tensor& y);  // [n]: the critic on (x_i, y_i)
  double everyPairReading(const Batch& heldOut);                      // onEveryPair on the whole part
  double onePermutationReading(const Batch& heldOut);                 // onOnePermutation on the whole part
  at::Tensor value(const at::Tensor& scores) const {
    return bound_.value ? bound_.value(scores) : bound_.objective(scores);
  }

  // The critic's settings, read once by the public constructor.
  ScoreMatrixEstimator(const EstimatorContext& ctx, const CriticOptions& options, ScoreMatrixBound bound);

  int64_t K_;
  bool oracle_;
  const TaskSampler* task_;
  at::Generator gen_;
  std::unique_ptr<SeparableCritic> critic_;  // critic = learned
  std::unique_ptr<JointCritic> joint_;       // critic = joint; both null for the oracle
  ScoreMatrixBound bound_;
  InBatchNceBackward inBatchNce_;  // the joint critic's InfoNCE gradient (the separable critic keeps its own)
};

// The x side a critic reads: [x, x'] when the task has a subview, else x; and its width.
at::Tensor criticInput(const Batch& batch);
int64_t criticInputDim(const TaskSampler& task);
// The analytic critic on a batch's in-batch pairs: [B, B], PMI(x_i, y_j) (with x'_i on gaussian3).
at::Tensor oraclePmiMatrix(const TaskSampler& task, const Batch& batch);

}  // namespace milab
