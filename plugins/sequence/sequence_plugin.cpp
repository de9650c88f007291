#include "sequence_plugin.h"

#include <cmath>

#include "sequence_estimator.h"

namespace milab {

MethodInfo SequencePlugin::info() const {
  MethodInfo i;
  i.family = "sequence";
  i.params = sequenceParamSpecs();
  i.readsTokens = true;
  switch (objective_) {
    case SequenceObjective::Nce:
      i.id = "infonce-text";
      i.displayName = "InfoNCE on dialogues (GRU encoders)";
      i.summary = "I_NCE(x;y) between a dialogue's context and its next utterance, GRU encoders, in-batch negatives";
      break;
    case SequenceObjective::DemiCnce:
      i.id = "demi-text";
      i.displayName = "DEMI on dialogues (I_CNCE, negatives from p(y|x'))";
      i.summary =
          "I_NCE(x';y) + I_CNCE(x;y|x') with GRU encoders, the conditional term's K - 1 negatives drawn from the "
          "true p(y|x') (DEMI's restricted-context futures)";
      i.needsSubview = true;
      break;
    case SequenceObjective::DemiVar:
      i.id = "demi-text-var";
      i.displayName = "DEMI on dialogues (I_VAR, negatives from a learned q(y|x'))";
      i.summary =
          "I_NCE(x';y) + I_VAR(x;y|x') with GRU encoders: the conditional term's K - 1 negatives drawn from a learned "
          "q(y|x') (a softmax per token), less E KL(p(y|x') || q) read with the task's exact log p(y|x')";
      i.needsSubview = true;
      break;
    case SequenceObjective::DemiBo:
      i.id = "demi-text-bo";
      i.displayName = "DEMI on dialogues (I_BO)";
      i.summary =
          "GRU encoders trained by I_NCE(x';y) + I_BO (in-batch negatives, x''s logits boosting x's: Listing 1), "
          "read as I_NCE(x';y) + I_CNCE(x;y|x') against the true p(y|x')";
      i.needsSubview = true;
      break;
  }
  return i;
}

QList<Ceiling> SequencePlugin::ceilings(const ParamMap& params) const {
  const double logK = std::log(double(sequenceOptions(objective_, params).batch));
  if (objective_ == SequenceObjective::Nce) return {{"log K", logK}};
  return {{"2 log K", 2 * logK}};
}

// The GRU's activations and their gradients: about 40 bytes per (sequence token, hidden unit) over a 0.3 GB base;
// DEMI's conditional term encodes K x K candidate utterances (demi-text-bo's readings too), InfoNCE 2K sequences.
MemoryNeed SequencePlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap& taskParams) const {
  const SequenceOptions o = sequenceOptions(objective_, params);
  const double tokens = contextTokens(taskParams);
  const double sequences = double(o.batch) * (objective_ == SequenceObjective::Nce ? 2.0 : double(o.batch));
  return {3e8 + 40.0 * sequences * tokens * double(o.hidden), "batch",
          QStringLiteral("the GRU's activations over %L1 sequences").arg(qlonglong(sequences)), "lower batch or hidden"};
}

std::unique_ptr<Estimator> SequencePlugin::create(const EstimatorContext& context) const {
  return std::make_unique<SequenceEstimator>(context, objective_);
}

}  // namespace milab
