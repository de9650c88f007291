#pragma once
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

// BMMI: as AMMI with H(Z) computed exactly over the 2^m codes of the batch's aggregate posterior (m <= 16):
// a lower bound on I(X;Z) <= I(X;Y).
class BmmiPlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "bmmi.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task) const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
