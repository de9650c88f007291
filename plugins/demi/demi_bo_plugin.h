#pragma once
// DEMI-BO: phi trained by the boosted critic bound I_BO (DEMI eq. 10): InfoNCE over marginal negatives
// with scores psi (detached) + phi. I_BO bounds the total MI; its optimal phi is the conditional PMI.
#include <QObject>

#include "demi/decomposed_plugin.h"

namespace milab {

class DemiBoPlugin : public QObject, public DecomposedPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-bo.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiBoPlugin();
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
