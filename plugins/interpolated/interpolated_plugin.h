#pragma once
// Poole et al.'s interpolated bound I_alpha: a multi-sample bound whose baseline mixes the leave-one-out
// InfoNCE mean (weight alpha) with a learned baseline l(x). Ceiling 1 + log((K-1)/alpha).
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class InterpolatedPlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "interpolated.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
