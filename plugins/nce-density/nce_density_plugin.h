#pragma once
// Gutmann-Hyvarinen NCE of an unnormalised density model of y against a Gaussian noise law: the model's
// learned normaliser is driven to the value that makes it integrate to 1 (reported: log Z -> 0).
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class NceDensityPlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "nce-density.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
  // log Z starts at d/2 log(2 pi) (c = 0) and NCE drives it to 0: a final |log Z| above half its start means
  // NCE did not get halfway (diverged, or stalled).
  ReadingLimits readingLimits(const ParamMap& params, const TaskModel& task) const override;
};

}  // namespace milab
