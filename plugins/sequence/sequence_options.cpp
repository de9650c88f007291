#include "sequence_options.h"

namespace milab {

ParamSpecs sequenceParamSpecs() {
  const SequenceOptions d;
  return {
      ParamSpec::integer("batch", int(d.batch), 2, 1024,
                         "K: dialogues per step, and each row's candidates (the positive among them)"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("embedding", int(d.embedding), 1, 512, "size of each token's embedding"),
      ParamSpec::integer("hidden", int(d.hidden), 1, 1024, "the GRU's state size (its last state represents a sequence)"),
      ParamSpec::integer("embed", int(d.embed), 1, 1024, "output size of each head; the critic is their dot product"),
  };
}

double contextTokens(const ParamMap& taskParams) {
  return taskParams.value("utterance_length").toDouble() * taskParams.value("context").toDouble();
}

SequenceOptions sequenceOptions(SequenceObjective objective, const ParamMap& p) {
  SequenceOptions o;
  o.objective = objective;
  o.batch = p.value("batch").toLongLong();
  o.lr = p.value("lr").toDouble();
  o.embedding = p.value("embedding").toLongLong();
  o.hidden = p.value("hidden").toLongLong();
  o.embed = p.value("embed").toLongLong();
  return o;
}

QStringList sequenceTermNames(SequenceObjective objective) {
  switch (objective) {
    case SequenceObjective::Nce:
      return {"I_NCE(x;y)"};
    case SequenceObjective::DemiCnce:
      return {"I_NCE(x';y)", "I_CNCE(x;y|x')"};
    case SequenceObjective::DemiBo:
      return {"I_NCE(x';y)", "I_CNCE(x;y|x')"};
    case SequenceObjective::DemiVar:
      return {"I_NCE(x';y)", "I_VAR(x;y|x')"};
  }
  return {};
}

QStringList sequenceTrainingTermNames(SequenceObjective objective) {
  if (objective == SequenceObjective::DemiBo) return {"I_NCE(x';y)", "I_BO(x;y)"};
  return sequenceTermNames(objective);
}

}  // namespace milab
