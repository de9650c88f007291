#pragma once
// Critic trained by the f-GAN Jensen-Shannon objective (optimum: PMI), MI reported by NWJ at f + 1.
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class JsPlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "js.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
