#pragma once
// DEMI-SIR: phi trained by I_SIR (DEMI eq. 8): per row, K/2-1 negatives resampled from M marginal samples
// with weights softmax(psi(x', y_m)) (sampling importance resampling).
#include <QObject>

#include "demi/decomposed_plugin.h"

namespace milab {

class DemiSirPlugin : public QObject, public DecomposedPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-sir.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiSirPlugin();
  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
