#pragma once
// Local (binary) NCE: -log s(s+) - sum log s(-s-) over N-1 negatives; MI read as E_joint[s + log(N-1)].
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class LocalNcePlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "local-nce.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
