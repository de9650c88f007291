#pragma once
// What kl-dime, gan-dime and hd-dime share as plugins: info, memory and estimator. Apart from dime_estimator.h so
// that the plugins' Qt classes (and their moc) see no LibTorch header.
#include "f_divergence.h"
#include "method/method_plugin.h"

namespace milab {

// The plugin behind kl-dime, gan-dime and hd-dime: one per divergence (their folders' small Qt classes).
class DimePlugin : public MethodPlugin {
 public:
  explicit DimePlugin(FDivergence divergence) : divergence_(divergence) {}
  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;

 private:
  FDivergence divergence_;
};

}  // namespace milab
