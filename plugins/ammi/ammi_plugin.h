#pragma once
#include <QObject>

#include "method/method_plugin.h"

namespace milab {

// AMMI (Stratos & Wiseman 2020): H+(Z) - H+(Z|X) over Markov-order codes z in {0,1}^m, H+(Z) against an
// adversarially fitted prior of order r (Algorithm 2). Neither an upper nor a lower bound.
class AmmiPlugin : public QObject, public MethodPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "ammi.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task) const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
