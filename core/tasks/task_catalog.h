#pragma once
// The tasks the lab knows, their declared parameters, and how a parameter map becomes a GaussianModel.
#include <QList>
#include <QString>

#include <cstdint>

#include "params/param_spec.h"
#include "tasks/gaussian_model.h"

namespace milab {

struct TaskInfo {
  QString id;
  QString displayName;
  ParamSpecs params;
  bool hasSubview = false;  // x' exists, so does the true p(y | x') sampler (DEMI's conditional negatives)
};

const QList<TaskInfo>& availableTasks();
const TaskInfo* findTask(const QString& id);

// Checks and normalises `params` in place (defaults filled, types canonical, cross-field limits such as
// mi <= 5 * dim). Returns "" or one line naming the field and the allowed range.
QString validateTaskParams(const TaskInfo& task, ParamMap* params);

// Builds the model from validated params. The seed draws gaussian3's random split, alphas and correlations.
GaussianModel buildTask(const QString& id, const ParamMap& params, std::uint64_t seed);

}  // namespace milab
