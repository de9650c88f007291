#pragma once
// SMILE (Song & Ermon): DV with the partition term over scores clipped to [-tau, tau], JS gradients.
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class SmilePlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "smile.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
