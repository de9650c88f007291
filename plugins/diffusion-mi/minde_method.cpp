// minde-c's recipe and plugin (minde_method.h says what it estimates and how).
#include "minde_method.h"

#include <memory>

#include "diffusion_method.h"
#include "method/score_matrix_estimator.h"
#include "reading_cap.h"
#include "vp_sde.h"

namespace milab {

DiffusionRecipe mindeRecipe(const MindeOptions& o, int64_t dimX, int64_t dimY) {
  DiffusionRecipe r;
  r.schedule = std::make_shared<VpSdeTimes>(o.schedule);
  r.network = {o.batch, o.hiddenFor(dimX + dimY), o.layers, o.lr, o.ema, o.draws, o.oracle};
  r.dropout = 0.5;
  r.dropWholeBatch = true;  // the reference's rand_batch = False: y given to every row or to none
  // MINDE's VP_SDE.train_step: the mean error per x column, times 1 + dim y / (dim x + dim y) for the share of
  // columns left clean. Its draws of t follow the reading's density already, so no row is weighted.
  r.lossFactor = (1.0 + double(dimY) / double(dimX + dimY)) / double(dimX);
  r.weighLoss = false;
  r.second = DiffusionRecipe::SecondForm::againstUnitGaussian;
  r.orthogonalName = QStringLiteral("MINDE-C, difference of the scores");
  r.secondName = QStringLiteral("MINDE-C(sigma), each score against a unit Gaussian's");
  r.oracleName = QStringLiteral("Girsanov integral of the exact noise errors (Monte Carlo)");
  r.exactName = QStringLiteral("the same integral from g(1) to g(eps), exactly (without the sliver t < eps)");
  return r;
}

MethodInfo MindePlugin::info() const {
  return diffusionMethodInfo(
      "minde-c", "MINDE-C (diffusion scores)",
      "one score network of x diffused on a VP-SDE, trained with y and without it; reads 1/2 the integral over t of "
      "beta(t) times the squared gap between its two scores (Girsanov), on held-out rows. Neither bound",
      mindeParamSpecs());
}

QList<Ceiling> MindePlugin::ceilingsOn(const ParamMap& params, const TaskModel& task) const {
  return readingCapOn(mindeOptions(params).schedule.capPerDirection(), task, readingLimits(params, task).high);
}

QString MindePlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap&) const {
  const MindeOptions o = mindeOptions(params);
  if (o.schedule.betaMax <= o.schedule.betaMin)
    return QStringLiteral("beta_max: must be above beta_min (%1), got %2")
        .arg(o.schedule.betaMin)
        .arg(o.schedule.betaMax);
  return diffusionOracleRefusal(o.oracle, "minde-c", "exact Gaussian noise errors", task);
}

// At the widest automatic width when the width is automatic.
MemoryNeed MindePlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const MindeOptions o = mindeOptions(params);
  return diffusionMemoryNeed(o.batch, o.draws, double(o.hidden > 0 ? o.hidden : 256), o.layers, "score network");
}

std::unique_ptr<Estimator> MindePlugin::create(const EstimatorContext& context) const {
  const int64_t dimX = criticInputDim(*context.task), dimY = context.task->dimY();
  return std::make_unique<DiffusionEstimator>(context, mindeRecipe(mindeOptions(context.params), dimX, dimY));
}

}  // namespace milab
