#pragma once
// I_DEMI = I_NCE(x';y) + I_CNCE(x;y|x') (DEMI paper eq. 5, eq. 36): K/2 candidates per term, the conditional
// negatives from the true p(y|x'); one x-side encoder serves both terms, f(x') = f([x', 0]). Ceiling 2 log(K/2)
// (or 2 log K under the marginal evaluation protocol, see DecomposedEstimator).
#include <QObject>

#include "demi/decomposed_plugin.h"

namespace milab {

class DemiPlugin : public QObject, public DecomposedPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiPlugin();
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
