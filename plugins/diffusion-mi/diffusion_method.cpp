// What mmg's and minde-c's plugins share (diffusion_method.h).
#include "diffusion_method.h"

namespace milab {

MethodInfo diffusionMethodInfo(const QString& id, const QString& displayName, const QString& summary,
                               const ParamSpecs& params) {
  MethodInfo i;
  i.id = id;
  i.displayName = displayName;
  i.family = "diffusion";
  i.summary = summary;
  i.params = params;
  i.lowerBound = false;
  i.selectsByHeldOutLoss = true;  // its denoising (or score-matching) loss on held-out rows
  // asinh on light-tailed columns cost both at 10,000 samples (docs/benchmark.md): the lab's recipe maps heavy
  // tails only.
  i.labRecipeTransform = QStringLiteral("tails");
  i.readsHeavyTails = true;  // both Student-t tables within bmi's factor at 5,000 rows (docs/benchmark.md)
  i.testsBothSides = true;   // permuted ys widen the gap they read: a one-sided test has no power
  return i;
}

QString diffusionOracleRefusal(bool oracle, const QString& method, const QString& integrates, const TaskInfo& task) {
  if (!oracle || task.capabilities.gaussianXSide) return {};
  return QStringLiteral(
             "critic: %1's oracle integrates %2, and task %3 has no Gaussian x side (gaussian2 and gaussian3 have "
             "one); use critic learned")
      .arg(method, integrates, task.id);
}

MemoryNeed diffusionMemoryNeed(int64_t batch, int64_t draws, double width, int64_t layers, const QString& network) {
  const double rows = double(batch) * double(draws);
  return {0.2e9 + rows * 2 * 3 * 4 * width * double(layers), QStringLiteral("draws"),
          QStringLiteral("the reading's batch x draws rows through the %1").arg(network),
          QStringLiteral("lower draws, batch or hidden")};
}

}  // namespace milab
