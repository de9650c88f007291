#pragma once
// DEMI-IS: phi trained by I_IS (DEMI eq. 9), the importance-sampled CNCE over marginal negatives with
// weights from the unconditional critic psi (detached). Evaluated by the run's protocol.
#include <QObject>

#include "demi/decomposed_plugin.h"

namespace milab {

class DemiIsPlugin : public QObject, public DecomposedPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-is.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiIsPlugin();
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
