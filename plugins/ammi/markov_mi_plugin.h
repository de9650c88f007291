#pragma once
// The MethodPlugin side shared by AMMI and BMMI: the Markov-order parameters and their checks, the m log 2
// reference, and the MarkovMiEstimator. Each plugin class only names itself (and derives from QObject, since
// moc needs Q_OBJECT and Q_PLUGIN_METADATA in each plugin class).
#include "method/method_plugin.h"

namespace milab {

class MarkovMiPlugin : public MethodPlugin {
 public:
  // learnedPrior: AMMI's adversarial prior; false: BMMI's exact entropy by enumeration.
  MarkovMiPlugin(bool learnedPrior, QString id, QString displayName, QString summary);

  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  QList<Ceiling> ceilings(const ParamMap& params) const override;
  ReadingLimits readingLimits(const ParamMap& params, const TaskModel& task) const override;
  QString warning(const ParamMap& params, const QList<Term>& terms) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;

 private:
  bool learnedPrior_;
  QString id_, displayName_, summary_;
};

}  // namespace milab
