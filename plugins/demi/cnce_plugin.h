#pragma once
// I_CNCE(x;y|x') alone (DEMI eq. 6): a lower bound on the conditional MI with K-1 negatives per row from
// the true p(y|x'), critic f([x', x]) . g(y). Ceiling log K.
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class CncePlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "cnce.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
