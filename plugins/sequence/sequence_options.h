#pragma once
// The sequence family's options (infonce-text, demi-text, demi-text-bo), read from a validated ParamMap in one place.
#include <QStringList>

#include "params/param_spec.h"

namespace milab {

// DEMI's dialogue comparison (section 5.3): InfoNCE between x and y against the chain rule's two terms.
enum class SequenceObjective {
  Nce,       // I_NCE(x;y), in-batch negatives
  DemiCnce,  // I_NCE(x';y) + I_CNCE(x;y|x'), the conditional term's negatives drawn from the true p(y|x')
  DemiBo,    // I_NCE(x';y) + I_BO(x;y|x'), in-batch negatives boosted by the unconditional critic (Listing 1)
  DemiVar,   // I_NCE(x';y) + I_VAR(x;y|x'): I_CNCE against futures of a learned q(y|x'), minus E KL(p(y|x') || q)
};

struct SequenceOptions {
  SequenceObjective objective = SequenceObjective::Nce;
  int64_t batch = 64;      // K: a row's candidates, the positive among them (in-batch, or K - 1 from p(y|x'))
  double lr = 1e-3;        // Adam
  int64_t embedding = 16;  // each token's embedding
  int64_t hidden = 64;     // the GRU's state: its last state is the sequence's representation
  int64_t embed = 32;      // the critic's dot product: each head's output
};

ParamSpecs sequenceParamSpecs();
// Tokens of the context x one sequence holds, from a validated dialogue task's keys (0 for a task without them).
double contextTokens(const ParamMap& taskParams);
SequenceOptions sequenceOptions(SequenceObjective objective, const ParamMap& params);
// The terms a reading sums, in the order the summary lists them; and the terms a training step maximises.
QStringList sequenceTermNames(SequenceObjective objective);
QStringList sequenceTrainingTermNames(SequenceObjective objective);

}  // namespace milab
