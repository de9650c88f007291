#include "next_utterance_retrieval.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

namespace milab {

namespace {

constexpr std::uint64_t kRetrievalSeed = 20211;  // the candidate sets, the same for every run and method

}  // namespace

double retrievedShare(const at::Tensor& scores) {
  const at::Tensor others = scores.narrow(1, 1, scores.size(1) - 1).amax(1);
  return (scores.select(1, 0) > others).to(at::kDouble).mean().item<double>();
}

QList<NamedValue> nextUtteranceRetrieval(const TaskSampler& task, const CandidateScores& score) {
  c10::NoGradGuard noGrad;
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(kRetrievalSeed);
  const Batch rows = task.sampleJoint(kRetrievalDialogues, gen);
  const int64_t others = kRetrievalCandidates - 1, b = rows.y.size(0);
  const at::Tensor random = task.sampleMarginalY(b * others, gen).reshape({b, others, -1});
  const at::Tensor conditional = task.sampleYGivenXp(rows.xp, others, gen);
  const auto withTrue = [&](const at::Tensor& distractors) { return at::cat({rows.y.unsqueeze(1), distractors}, 1); };
  const auto exact = [&](const at::Tensor& candidates) {
    return task.pmi(rows.x.unsqueeze(1), rows.xp.unsqueeze(1), candidates);
  };
  const at::Tensor randomSet = withTrue(random), conditionalSet = withTrue(conditional);
  return {{"retrieval_random", retrievedShare(score(rows, randomSet))},
          {"retrieval_conditional", retrievedShare(score(rows, conditionalSet))},
          {"retrieval_random_exact", retrievedShare(exact(randomSet))},
          {"retrieval_conditional_exact", retrievedShare(exact(conditionalSet))}};
}

}  // namespace milab
