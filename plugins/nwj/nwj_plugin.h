#pragma once
// NWJ (Nguyen, Wainwright, Jordan): E_joint[s] - e^-1 E_marginals[e^s], in-batch; no log K ceiling.
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class NwjPlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "nwj.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
