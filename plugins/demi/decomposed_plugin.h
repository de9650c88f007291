#pragma once
// The MethodPlugin side shared by DEMI and its variants: the family's parameters (with `protocol`), K even
// under the conditional protocol, the protocol's ceiling. A variant's plugin names itself and creates its
// estimator (a DecomposedEstimator); its class still derives from QObject itself, since moc needs
// Q_OBJECT and Q_PLUGIN_METADATA in each plugin class. Torch-free.
#include "method/method_plugin.h"

namespace milab {

class DecomposedPlugin : public MethodPlugin {
 public:
  DecomposedPlugin(QString id, QString displayName, QString summary);

  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;

 private:
  QString id_, displayName_, summary_;
};

}  // namespace milab
