#include "sequence_estimator.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

#include "nn/bounds.h"
#include "nn/flat_adam.h"
#include "next_utterance_retrieval.h"
#include "nn/reading_draws.h"
#include "tasks/task.h"
#include "token_encoder.h"

namespace milab {

struct SequenceEstimator::Networks {
  TokenEncoder f{nullptr}, g{nullptr};
  torch::nn::Linear u{nullptr}, c{nullptr}, v{nullptr};
  // demi-text-var's q(y|x'): at each of y's positions a softmax over the token ids, from x''s encoder state
  // (detached: q learns on the critic's features and never trains them).
  torch::nn::Linear q{nullptr};
  std::unique_ptr<FlatAdam> adam;

  Networks(const SequenceOptions& o, int64_t yLength, at::Generator& gen, c10::Device device)
      : f(o.embedding, o.hidden, gen), g(o.embedding, o.hidden, gen) {
    u = seededLinear(o.hidden, o.embed, gen);
    v = seededLinear(o.hidden, o.embed, gen);
    c = seededLinear(o.hidden, o.embed, gen);
    std::vector<torch::nn::Module*> modules{f.get(), g.get(), u.get(), v.get(), c.get()};
    if (o.objective == SequenceObjective::DemiVar) {  // drawn last: the other methods' networks stay as they were
      q = seededLinear(o.hidden, yLength * (TaskCapabilities::kLargestTokenId + 1), gen);
      modules.push_back(q.get());
    }
    std::vector<at::Tensor> params;
    for (torch::nn::Module* m : modules) {
      m->to(device);
      for (const at::Tensor& p : m->parameters()) params.push_back(p);
    }
    adam = std::make_unique<FlatAdam>(params, o.lr);
  }
};

namespace {

// q's log-probabilities [B, length, ids] from x''s encoder state.
at::Tensor proposalLogProbabilities(torch::nn::Linear& q, const at::Tensor& state, int64_t length) {
  return at::log_softmax(q(state.detach()).reshape({state.size(0), length, -1}), 2);
}

// perRow futures [B, perRow, length] drawn from q, token by token (ids as floats, as the task writes them).
at::Tensor proposedFutures(const at::Tensor& logQ, int64_t perRow, at::Generator& gen) {
  const int64_t b = logQ.size(0), length = logQ.size(1);
  const at::Tensor ids = at::multinomial(logQ.detach().exp().reshape({b * length, -1}), perRow, true, gen);
  return ids.reshape({b, length, perRow}).permute({0, 2, 1}).to(at::kFloat);
}

}  // namespace

SequenceEstimator::SequenceEstimator(const EstimatorContext& ctx, SequenceObjective objective)
    : options_(sequenceOptions(objective, ctx.params)), ctx_(ctx) {
  at::Generator gen = ctx.generator;
  nets_ = std::make_unique<Networks>(options_, ctx.task->dimY(), gen, ctx.device);
}

SequenceEstimator::~SequenceEstimator() = default;

std::vector<at::Tensor> SequenceEstimator::terms(const Batch& batch, at::Generator& negatives, bool reading) {
  Networks& n = *nets_;
  const at::Tensor vy = n.v(n.g(batch.y));
  if (options_.objective == SequenceObjective::Nce) return {inBatchNce(n.u(n.f(batch.x)).matmul(vy.t()))};
  const int64_t b = batch.x.size(0);
  const at::Tensor h = n.f(at::cat({batch.xp, batch.x}));  // one pass of the encoder over x' and x
  const at::Tensor psi = n.u(h.narrow(0, 0, b)).matmul(vy.t());
  const at::Tensor cx = n.c(h.narrow(0, b, b));
  // Listing 1: x''s logits, detached, boost x's; I_BO bounds I(x;y) itself, so it trains phi and is never added to
  // I_NCE(x';y): a reading evaluates phi by I_CNCE against the true p(y|x') instead (the paper's Figure 2, top).
  if (options_.objective == SequenceObjective::DemiBo && !reading)
    return {inBatchNce(psi), inBatchNce(psi.detach() + cx.matmul(vy.t()))};
  // I_CNCE (DEMI eq. 6): the positive y_i against K - 1 futures drawn from the true p(y | x'_i); for VAR (eq. 7) from
  // q(y | x'_i), less E KL(p(y|x') || q(y|x')), read on the batch's own futures as the mean of log p(y_i | x'_i) -
  // log q(y_i | x'_i) (the task's exact log-ratio and log p(y)). Its gradient trains q by likelihood; the
  // contrastive term never does (its futures are drawn).
  const bool variational = options_.objective == SequenceObjective::DemiVar;
  at::Tensor logQ, drawn;
  if (variational) {
    logQ = proposalLogProbabilities(n.q, h.narrow(0, 0, b), batch.y.size(1));
    drawn = proposedFutures(logQ, options_.batch - 1, negatives);
  } else {
    drawn = ctx_.task->sampleYGivenXp(batch.xp, options_.batch - 1, negatives);
  }
  const at::Tensor candidates = n.v(n.g(drawn.reshape({-1, drawn.size(2)}))).reshape({b, drawn.size(1), -1});
  const at::Tensor phi = at::cat({(cx * vy).sum(1, true), at::matmul(candidates, cx.unsqueeze(2)).squeeze(2)}, 1);
  if (!variational) return {inBatchNce(psi), firstColumnNce(phi)};
  const at::Tensor logQOfY = logQ.gather(2, batch.y.to(at::kLong).unsqueeze(2)).sum() / double(b);
  // Left on the device (no host read in a step): the task's float64, in the networks' precision.
  const at::Tensor logPOfY =
      (ctx_.task->subviewPmi(batch.xp, batch.y) + ctx_.task->logMarginalY(batch.y)).mean().to(logQOfY.scalar_type());
  return {inBatchNce(psi), firstColumnNce(phi) - (logPOfY - logQOfY)};
}

StepResult SequenceEstimator::trainStep(const Batch& batch) {
  const std::vector<at::Tensor> parts = terms(batch, ctx_.noise, false);
  at::Tensor objective = parts.front();
  for (size_t i = 1; i < parts.size(); ++i) objective = objective + parts[i];
  // I_BO is itself the step's bound on I(x;y); the two terms' sum is only what trains both critics.
  const at::Tensor estimate = options_.objective == SequenceObjective::DemiBo ? parts.back() : objective;
  nets_->adam->zero_grad();
  const at::Tensor loss = -objective;
  loss.backward();
  nets_->adam->step();
  StepResult result{StepReading(estimate.detach()), StepReading(loss.detach()), {}};
  if (parts.size() > 1) {
    const QStringList names = sequenceTrainingTermNames(options_.objective);
    for (size_t i = 0; i < parts.size(); ++i) result.terms.push_back({names[int(i)], StepReading(parts[i].detach())});
  }
  return result;
}

Evaluation SequenceEstimator::evaluate(const Batch& batch) {
  torch::NoGradGuard noGrad;
  at::Generator draws = readingGenerator(batch.x, batch.y, ctx_.device);
  const std::vector<at::Tensor> parts = terms(batch, draws, true);
  Evaluation e;
  const QStringList names = sequenceTermNames(options_.objective);
  for (size_t i = 0; i < parts.size(); ++i) {
    const double v = parts[i].item<double>();
    e.value += v;
    e.terms << Term{names[int(i)], v};
  }
  return e;
}

QList<NamedValue> SequenceEstimator::learnedReadings() {
  torch::NoGradGuard noGrad;
  Networks& n = *nets_;
  return nextUtteranceRetrieval(*ctx_.task, [&](const Batch& rows, const at::Tensor& candidates) {
    const int64_t b = candidates.size(0), c = candidates.size(1);
    const at::Tensor vy = n.v(n.g(candidates.reshape({b * c, -1}))).reshape({b, c, -1});
    const auto against = [&](const at::Tensor& side) { return at::matmul(vy, side.unsqueeze(2)).squeeze(2); };
    if (options_.objective == SequenceObjective::Nce) return against(n.u(n.f(rows.x)));
    return against(n.u(n.f(rows.xp))) + against(n.c(n.f(rows.x)));
  });
}

}  // namespace milab
