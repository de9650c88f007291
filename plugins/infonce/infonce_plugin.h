#pragma once
// I_NCE (DEMI paper eq. 2, A.6): critic f([x, x'])^T g(y), in-batch negatives from p(y), ceiling log K.
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class InfoNcePlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "infonce.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
