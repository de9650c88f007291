#pragma once
// TUBA (Poole et al. 2019): 1 + E_joint[s - l(x)] - E_marginals[e^{s - l(x)}] with a learned log-baseline
// l(x), an MLP trained with the critic. No ceiling.
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class TubaPlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "tuba.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
