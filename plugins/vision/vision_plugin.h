#pragma once
// What the four vision methods share as plugins: their info, ceilings, validation and estimator. Apart from
// vision_estimator.h so that the plugins' Qt classes (and their moc) see no LibTorch header.
#include "method/method_plugin.h"
#include "vision_options.h"

namespace milab {

// The plugin behind the four methods (their folder's small Qt classes).
class VisionPlugin : public MethodPlugin {
 public:
  explicit VisionPlugin(VisionObjective objective) : objective_(objective) {}
  MethodInfo info() const override;
  // Each term is at most log(batch): the objective at most (terms) x log(batch).
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  // The queue against the task's train_images.
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  qint64 samplesPerBatch(const ParamMap& params) const override { return visionOptions(objective_, params).batch; }
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;

 private:
  VisionObjective objective_;
};

}  // namespace milab
