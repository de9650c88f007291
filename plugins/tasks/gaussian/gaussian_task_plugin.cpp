#include "gaussian_task_plugin.h"

#include "gaussian_task_model.h"
#include "gaussian_task_options.h"

namespace milab {

QList<TaskInfo> GaussianTaskPlugin::tasks() const {
  TaskInfo g2;
  g2.id = "gaussian2";
  g2.displayName = "Gaussian pair (x, y)";
  g2.family = "gaussian";
  g2.summary = "x, y in R^dim, corr(x_i, y_i) = rho in every dimension; exact I(x;y), PMI and densities";
  g2.params = gaussianSizeSpecs();
  g2.params[1].defaultValue = GaussianTaskOptions::kPairMi;
  g2.params << ParamSpec::boolean("cubic", GaussianTaskOptions{}.cubic, "transform y -> y^3 (MI unchanged)")
            << gaussianStaircaseSpecs();
  g2.capabilities = {false, true, true};
  g2.capabilities.gaussianXSide = true;

  TaskInfo g3;
  g3.id = "gaussian3";
  g3.displayName = "Gaussian triple (x, x', y)";
  g3.family = "gaussian";
  g3.summary =
      "x, x', y in R^dim, the MI split at random over dimensions (DEMI sec. 5.1); exact I(x,x';y), "
      "I(x';y), I(x;y|x'), PMIs, densities and samples of p(y|x')";
  g3.params = gaussianSizeSpecs();
  ParamSpec alpha = withoutDefault(ParamSpec::real(
      "alpha", 0.5, 0.0, 1.0, "I(x';y) / I(x,x';y) per dimension; unset draws it from U(0.1, 0.9)", true, true));
  alpha.label = "alpha = I(x';y) / I(x,x';y)";
  g3.params << alpha << gaussianStaircaseSpecs();
  g3.capabilities = {true, true, true};
  g3.capabilities.gaussianXSide = true;
  return {g2, g3};
}

QString GaussianTaskPlugin::validate(const TaskInfo& task, ParamMap* params) const {
  return validateGaussianParams(task, params);
}

std::unique_ptr<TaskModel> GaussianTaskPlugin::build(const TaskInfo& task, const ParamMap& params,
                                                     std::uint64_t seed) const {
  const GaussianTaskOptions o = GaussianTaskOptions::from(params);
  if (task.id == "gaussian2") return std::make_unique<GaussianTaskModel>(GaussianModel::pair(o.dim, o.mi, o.cubic));
  return std::make_unique<GaussianTaskModel>(GaussianModel::triple(o.dim, o.mi, o.alpha, seed));
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_gaussian_task_plugin.cpp"
