#pragma once
// What the three sequence methods share as plugins: their info, ceilings, memory and estimator. Apart from
// sequence_estimator.h so that the plugins' Qt classes (and their moc) see no LibTorch header.
#include "method/method_plugin.h"
#include "sequence_options.h"

namespace milab {

class SequencePlugin : public MethodPlugin {
 public:
  explicit SequencePlugin(SequenceObjective objective) : objective_(objective) {}
  MethodInfo info() const override;
  // Each term is at most log K: InfoNCE log K, DEMI's two terms 2 log K.
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  qint64 samplesPerBatch(const ParamMap& params) const override { return sequenceOptions(objective_, params).batch; }
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;

 private:
  SequenceObjective objective_;
};

}  // namespace milab
