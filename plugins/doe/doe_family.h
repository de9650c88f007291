#pragma once
// Difference of entropies (McAllester & Stratos, 2020): I(X;Y) = H(Y) - H(Y|X), each entropy read as the
// cross entropy of a model on fresh samples, H+(Y) = E[-log q(y)] and H+(Y|X) = E[-log q(y|x)], both models
// trained by maximum likelihood. Neither an upper nor a lower bound (both cross entropies are upper bounds on
// their entropies, so their difference can err either way), and no log K ceiling. On gaussian3 it reads the
// total I(x,x';y) with q(y|x,x'). Torch-free header; the plugin classes beside it derive from it.
#include "method/method_plugin.h"

namespace milab {

class DoePlugin : public MethodPlugin {
 public:
  // `fixedFamily` empty: the method declares the key `family` (gaussian|logistic); else that family, no key.
  DoePlugin(QString id, QString displayName, QString fixedFamily);

  MethodInfo info() const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
  // q(y|x)'s activations (the oracle holds batch x dim only).
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;

 private:
  QString id_, displayName_, fixedFamily_;
};

}  // namespace milab
