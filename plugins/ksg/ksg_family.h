#pragma once
// KSG (Kraskov et al., 2004, algorithm 1) on `samples` fresh draws, and its conditional form for I(x;y|x')
// (Frenzel & Pompe, 2007) as ksg-cmi. Nothing is trained (MethodInfo::trains = false): the run's reading is
// the estimate on each of eval_batches independent sample sets, their mean and standard error. Known and shown
// as they are: strong underestimates at high MI and in high dimension. Torch-free header.
#include "method/method_plugin.h"

namespace milab {

class KsgPlugin : public MethodPlugin {
 public:
  KsgPlugin(QString id, QString displayName, bool conditional);

  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  // With the run's samples KSG reads every row at once: more than k of them, and their memory.
  QString validateWholeSet(const ParamMap& params, const SampleSetShape& set) const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;

 private:
  // "" or why `points` draws of dimension `dim` (counted by `key`: set_size or samples) do not fit this machine.
  QString checkMemory(qint64 points, int dim, bool hasSubview, const QString& key) const;

  QString id_, displayName_;
  bool conditional_;
};

// Bytes one KSG evaluation holds for `samples` draws of the task's variables (the batch, the joint and subspace
// copies in double, the trees' indices): what validate compares with the machine's memory.
double ksgBytesNeeded(qint64 samples, int dim, bool hasSubview);

}  // namespace milab
