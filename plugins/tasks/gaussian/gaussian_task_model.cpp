#include "gaussian_task_model.h"

#include "gaussian_sampler.h"

namespace milab {

QList<NamedValue> GaussianTaskModel::truths() const {
  if (!model_.hasSubview()) return {{"I(x;y)", model_.totalMi()}};
  return {{"I(x,x';y)", model_.totalMi()},
          {"I(x';y)", model_.subviewMi()},
          {"I(x;y|x')", model_.conditionalMi()},
          {"I(x;y)", model_.xOnlyMi()}};
}

std::optional<double> GaussianTaskModel::knownValue(const QString& name) const {
  if (name == kClubOracleValue) return clubOracleValue(model_);
  return std::nullopt;
}

TaskBreakdown GaussianTaskModel::breakdown() const {
  const auto& dims = model_.dims();
  TaskBreakdown b;
  QVector<double> shareSub, shareCond, alpha, mi;
  for (const GaussianDim& d : dims) {
    shareSub << d.alpha * d.mi;  // I(x'_i; y_i) = alpha_i mi_i by construction
    shareCond << (1.0 - d.alpha) * d.mi;
    alpha << d.alpha;
    mi << d.mi;
  }
  if (model_.hasSubview()) {
    b.title = QStringLiteral("I(x,x';y) = %1 = I(x';y) %2 + I(x;y|x') %3 nats\nsplit per dimension")
                  .arg(model_.totalMi(), 0, 'f', 2)
                  .arg(model_.subviewMi(), 0, 'f', 2)
                  .arg(model_.conditionalMi(), 0, 'f', 2);
    // Drawn as a reader writes them (x′ prime, subscript i, alpha), not as code spells them.
    b.stacked = {{QStringLiteral("I(x′ᵢ; yᵢ)"), shareSub}, {QStringLiteral("I(xᵢ; yᵢ | x′ᵢ)"), shareCond}};
    b.rightName = QStringLiteral("αᵢ");
    b.right = alpha;
  } else {
    b.title = QStringLiteral("I(x;y) = %1 nats\ncorr(xᵢ, yᵢ) = %2 in each of %3 dimensions")
                  .arg(model_.totalMi(), 0, 'f', 2)
                  .arg(dims.front().c, 0, 'f', 4)
                  .arg(dims.size());
    b.stacked = {{QStringLiteral("I(xᵢ; yᵢ)"), mi}};
  }
  return b;
}

std::unique_ptr<TaskSampler> GaussianTaskModel::sampler(c10::Device device) const {
  return std::make_unique<GaussianSampler>(model_, device);
}

double clubOracleValue(const GaussianModel& model) {
  double v = 0;
  for (const GaussianDim& d : model.dims()) v += 1.0 / d.sigma2 - 1.0;
  return v;
}

}  // namespace milab
