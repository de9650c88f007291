// mmg's recipe and plugin (mmg_method.h says what it estimates and how).
#include "mmg_method.h"

#include <memory>

#include "log_snr_draws.h"
#include "method/memory_need.h"
#include "reading_cap.h"

namespace milab {

DiffusionRecipe mmgRecipe(const MmgOptions& o) {
  DiffusionRecipe r;
  r.schedule = std::make_shared<LogisticLogSnr>(o.range);
  r.network = {o.batch, o.hidden, o.layers, o.lr, o.ema, o.draws, o.oracle};
  r.dropout = o.dropout;
  r.lossFactor = 0.5;  // 1/2 the integral of the error over g, as the reading
  r.weighLoss = true;  // by 1 / q(g): uniform in g, as the reading is
  r.second = DiffusionRecipe::SecondForm::errorGap;
  r.readsSecond = !o.orthogonal;
  r.orthogonalName = QStringLiteral("I-MMSE, orthogonal form (never negative)");
  r.secondName = QStringLiteral("I-MMSE, difference of the errors");
  r.oracleName = QStringLiteral("I-MMSE of the exact MMSEs (Monte Carlo)");
  r.exactName = QStringLiteral("the same integral over the g range, exactly");
  return r;
}

MethodInfo MmgPlugin::info() const {
  MethodInfo i;
  i.id = "mmg";
  i.displayName = "MMG (diffusion I-MMSE)";
  i.family = "diffusion";
  i.summary =
      "one denoiser of x noised at log-SNR g, trained with y dropped on a share of the rows; reads 1/2 the integral "
      "over g of the squared gap between its guesses with and without y (I-MMSE's orthogonal form; form difference: of "
      "the gap between its errors), on held-out rows. Neither bound";
  i.params = mmgParamSpecs();
  i.lowerBound = false;
  i.selectsByHeldOutLoss = true;  // its denoising loss on held-out rows
  // asinh on light-tailed columns cost it at 10,000 samples (docs/benchmark.md): the lab's recipe maps heavy tails
  // only.
  i.labRecipeTransform = QStringLiteral("tails");
  i.readsHeavyTails = true;  // both Student-t tables within bmi's factor at 5,000 rows (docs/benchmark.md)
  i.testsBothSides = true;   // permuted ys widen its score gap: a one-sided test has no power
  return i;
}

QList<Ceiling> MmgPlugin::ceilingsOn(const ParamMap& params, const TaskModel& task) const {
  return readingCapOn(mmgOptions(params).range.capPerDirection(), task, readingLimits(params, task).high);
}

QString MmgPlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap&) const {
  if (mmgOptions(params).oracle && !task.capabilities.gaussianXSide)
    return QStringLiteral(
               "critic: mmg's oracle integrates exact Gaussian MMSEs, and task %1 has no Gaussian x side "
               "(gaussian2 and gaussian3 have one); use critic learned")
        .arg(task.id);
  return {};
}

// Estimated from the tensor sizes, not measured: a reading holds batch x draws rows of the network's activations
// (with y and without), about 3 floats per hidden unit per layer per pass.
MemoryNeed MmgPlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const MmgOptions o = mmgOptions(params);
  const double rows = double(o.batch) * double(o.draws);
  return {0.2e9 + rows * 2 * 3 * 4 * double(o.hidden * o.layers), QStringLiteral("draws"),
          QStringLiteral("the reading's batch x draws rows through the denoiser"),
          QStringLiteral("lower draws, batch or hidden")};
}

std::unique_ptr<Estimator> MmgPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DiffusionEstimator>(context, mmgRecipe(mmgOptions(context.params)));
}

}  // namespace milab
