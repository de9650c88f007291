#pragma once
// DEMI-VAR: phi trained by I_VAR (DEMI eq. 7): CNCE with negatives from a learned Gaussian q(y|x') minus
// E KL(p(y|x') || q). q is fitted by maximum likelihood; the contrastive term does not train it.
#include <QObject>

#include "demi/decomposed_plugin.h"

namespace milab {

class DemiVarPlugin : public QObject, public DecomposedPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-var.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiVarPlugin();
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
