#include "beyond_normal.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <QLocale>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unsupported/Eigen/SpecialFunctions>
#include <vector>

#include "beyond_normal_variant.h"
#include "tasks/gaussian_mi.h"
#include "tasks/task_catalog.h"

namespace milab::beyond_normal {

namespace {

std::vector<int> range(int first, int count) {
  std::vector<int> v(count);
  std::iota(v.begin(), v.end(), first);
  return v;
}

}  // namespace

int TaskDefinition::sampledDimX() const { return transforms.contains(Transform::SwissRollX) ? 2 : dimX; }

const QStringList& benchmarkTaskIds() {
  static const QStringList ids = [] {
    QStringList out{"1v1-normal-0.75",
                    "normal_cdf-1v1-normal-0.75",
                    "1v1-additive-0.1",
                    "1v1-additive-0.75",
                    "1v1-bimodal-0.75",
                    "wiggly-1v1-normal-0.75",
                    "half_cube-1v1-normal-0.75",
                    "student-identity-1-1-1",
                    "asinh-student-identity-1-1-1",
                    "swissroll_x-normal_cdf-1v1-normal-0.75"};
    for (int d : {2, 3, 5, 25, 50}) out << QStringLiteral("multinormal-dense-%1-%1-0.5").arg(d);
    for (int d : {2, 3, 5, 25}) out << QStringLiteral("multinormal-sparse-%1-%1-2-2.0").arg(d);
    for (const char* s : {"2-2-1", "2-2-2", "3-3-2", "3-3-3", "5-5-2", "5-5-3"})
      out << QStringLiteral("student-identity-") + s;
    for (const char* prefix : {"normal_cdf-", "half_cube-", "spiral-", "spiral-normal_cdf-"})
      for (int d : {3, 5, 25}) out << QStringLiteral("%1multinormal-sparse-%2-%2-2-2.0").arg(prefix).arg(d);
    for (const char* s : {"2-2-1", "3-3-2", "5-5-2"}) out << QStringLiteral("asinh-student-identity-") + s;
    return out;
  }();
  return ids;
}

Eigen::MatrixXd sparseLatentCovariance(int dimX, int dimY, int interacting, double strength) {
  // bmi's GaussianLVMParametrization with alpha = beta = 0, lambda = eta = strength, epsilon = 1: every coordinate
  // has unit noise; the first `interacting` pairs (X_i, Y_i) share a latent of weight `strength`; every other
  // coordinate gets a private latent of the same weight, so all variances are 1 + strength^2.
  const int n = dimX + dimY;
  const double s2 = strength * strength;
  Eigen::MatrixXd c = Eigen::MatrixXd::Identity(n, n);
  for (int i = 0; i < interacting; ++i) {
    const int j = dimX + i;
    c(i, j) += s2;
    c(j, i) += s2;
    c(i, i) += s2;
    c(j, j) += s2;
  }
  for (int i = interacting; i < dimX; ++i) c(i, i) += s2;
  for (int j = dimX + interacting; j < n; ++j) c(j, j) += s2;
  return c;
}

QString parseTaskId(const QString& id, TaskDefinition* out) {
  TaskVariant variant;
  if (const QString err = readTaskId(id, &variant); !err.isEmpty()) return err;
  *out = defineTask(variant);
  out->id = id;  // as written (bmi's "2.0" stays "2.0")
  return {};
}

double studentEntropyWithoutDispersion(int k, double nu) {
  const double half = 0.5 * (nu + k);
  return -std::lgamma(half) + std::lgamma(0.5 * nu) + 0.5 * k * std::log(nu * M_PI) +
         half * (Eigen::numext::digamma(half) - Eigen::numext::digamma(0.5 * nu));
}

double additiveUniformMi(double epsilon) { return epsilon > 0.5 ? 0.25 / epsilon : epsilon - std::log(2 * epsilon); }

double exactMutualInformation(const TaskDefinition& t) {
  switch (t.base) {
    case Base::AdditiveUniform:
      return additiveUniformMi(t.epsilon);
    case Base::Multinormal:
      return gaussianMi(t.covariance, range(0, t.dimX), range(t.dimX, t.dimY));
    case Base::StudentT:
      // MI of the Gaussian with the dispersion as covariance, plus a term of the dimensions and dof alone.
      return gaussianMi(t.covariance, range(0, t.dimX), range(t.dimX, t.dimY)) +
             studentEntropyWithoutDispersion(t.dimX, t.dof) + studentEntropyWithoutDispersion(t.dimY, t.dof) -
             studentEntropyWithoutDispersion(t.dimX + t.dimY, t.dof);
  }
  return 0;
}

std::optional<double> clubOracleValue(const TaskDefinition& t) {
  if (t.base != Base::Multinormal || !t.transforms.isEmpty()) return std::nullopt;
  const Eigen::MatrixXd& c = t.covariance;
  const Eigen::MatrixXd yy = c.bottomRightCorner(t.dimY, t.dimY);
  const Eigen::MatrixXd yx = c.bottomLeftCorner(t.dimY, t.dimX);
  const Eigen::MatrixXd conditional = yy - yx * c.topLeftCorner(t.dimX, t.dimX).ldlt().solve(yx.transpose());
  return conditional.ldlt().solve(yy).trace() - t.dimY;
}

QString parseCovariance(const QString& text, int size, const QString& field, Eigen::MatrixXd* out) {
  QString written = text.trimmed();
  if (written.endsWith(';')) written.chop(1);  // a closing ';' ends the last row, as in "1, 0; 0, 1;"
  const QStringList rows = written.split(';');
  if (rows.size() != size)
    return QStringLiteral("%1: %2 rows, expected %3 (dim_x + dim_y; rows separated by ';')")
        .arg(field)
        .arg(rows.size())
        .arg(size);
  static const QRegularExpression separator("[,\\s]+");
  Eigen::MatrixXd m(size, size);
  for (int i = 0; i < size; ++i) {
    const QStringList cells = rows[i].trimmed().split(separator, Qt::SkipEmptyParts);
    if (cells.size() != size)
      return QStringLiteral("%1: row %2 has %3 entries, expected %4 (dim_x + dim_y)")
          .arg(field)
          .arg(i + 1)
          .arg(cells.size())
          .arg(size);
    for (int j = 0; j < size; ++j) {
      bool ok = false;
      m(i, j) = cells[j].toDouble(&ok);
      if (!ok || !std::isfinite(m(i, j)))
        return QStringLiteral("%1: row %2, entry %3 is '%4', not a finite number")
            .arg(field)
            .arg(i + 1)
            .arg(j + 1)
            .arg(cells[j].left(40));
    }
  }
  const double scale = m.cwiseAbs().maxCoeff();
  for (int i = 0; i < size; ++i)
    for (int j = i + 1; j < size; ++j)
      if (std::abs(m(i, j) - m(j, i)) > 1e-12 * scale)
        return QStringLiteral("%1: not symmetric: entry (%2, %3) is %4 but (%3, %2) is %5")
            .arg(field)
            .arg(i + 1)
            .arg(j + 1)
            .arg(shortestNumber(m(i, j)), shortestNumber(m(j, i)));
  // Positive definite, and not nearly singular (which would give an MI of thousands of nats and samples that are
  // rounding noise): the smallest eigenvalue a visible share of the largest. This alone is the test, since it
  // fails for any eigenvalue <= 0.
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(m, Eigen::EigenvaluesOnly);
  const double smallest = eigen.eigenvalues().minCoeff(), largest = eigen.eigenvalues().maxCoeff();
  if (!(smallest > 1e-9 * largest))
    return QStringLiteral(
               "%1: must be positive definite (smallest eigenvalue %2, largest %3; the smallest must be "
               "above 1e-9 times the largest)")
        .arg(field, QString::number(smallest, 'g', 4), QString::number(largest, 'g', 4));
  *out = m;
  return {};
}

QStringList nearestTaskIds(const QString& id, int count) { return nearestIds(id, benchmarkTaskIds(), count); }

}  // namespace milab::beyond_normal
