#pragma once
// MINE: the Donsker-Varadhan bound trained with a moving-average correction of its biased gradient.
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

class MinePlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "mine.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
