#include "beyond_normal.h"

#include <Eigen/Eigenvalues>
#include <QLocale>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unsupported/Eigen/SpecialFunctions>
#include <vector>

#include "tasks/gaussian_mi.h"
#include "tasks/task_catalog.h"

namespace milab::beyond_normal {

namespace {

constexpr int kMaxDim = 500;  // per side: a covariance of 1000 x 1000 is still read in milliseconds

struct Prefix {
  const char* text;
  Transform transform;
  const char* name;
};
// bmi writes a transform before its base's id: spiral-normal_cdf-X is spiral(normal_cdf(X)).
const Prefix kPrefixes[] = {{"normal_cdf-", Transform::NormalCdf, "Normal CDF"},
                            {"half_cube-", Transform::HalfCube, "Half-cube"},
                            {"asinh-", Transform::Asinh, "Asinh"},
                            {"wiggly-", Transform::Wiggly, "Wiggly"},
                            {"spiral-", Transform::Spiral, "Spiral"},
                            {"swissroll_x-", Transform::SwissRollX, "Swiss roll"}};

std::vector<int> range(int first, int count) {
  std::vector<int> v(count);
  std::iota(v.begin(), v.end(), first);
  return v;
}

QString number(double v) { return QString::number(v, 'g', QLocale::FloatingPointShortest); }

// One number of an id, read with its field name for the error.
QString readNumber(const QString& text, const QString& field, const QString& id, double low, double high, bool integer,
                   double* out) {
  bool ok = false;
  const double v = text.toDouble(&ok);
  const bool inRange = ok && std::isfinite(v) && v >= low && v <= high && (!integer || v == std::floor(v));
  if (!inRange)
    return QStringLiteral("task: %1 in '%2' must be %3 in [%4, %5], got '%6'")
        .arg(field, id, integer ? "an integer" : "a number", number(low), number(high), text);
  *out = v;
  return {};
}

QString readDims(const QStringList& parts, int at, const QString& id, TaskDefinition* out) {
  double dx = 0, dy = 0;
  QString err = readNumber(parts.value(at), "dim_x", id, 1, kMaxDim, true, &dx);
  if (err.isEmpty()) err = readNumber(parts.value(at + 1), "dim_y", id, 1, kMaxDim, true, &dy);
  out->dimX = int(dx);
  out->dimY = int(dy);
  return err;
}

Eigen::MatrixXd correlationOf(const Eigen::MatrixXd& covariance) {
  const Eigen::VectorXd inverseSd = covariance.diagonal().cwiseSqrt().cwiseInverse();
  return inverseSd.asDiagonal() * covariance * inverseSd.asDiagonal();
}

// The base of an id, after its transform prefixes. "" or the error line.
QString parseBase(const QString& base, const QString& id, TaskDefinition* out) {
  const QStringList p = base.split('-');
  const auto arity = [&](int n) {
    return p.size() == n ? QString()
                         : QStringLiteral("task: '%1' has %2 fields after '%3-%4-', expected %5")
                               .arg(id)
                               .arg(p.size() - 2)
                               .arg(p.value(0), p.value(1))
                               .arg(n - 2);
  };
  if (p.value(0) == "1v1" && (p.value(1) == "normal" || p.value(1) == "bimodal")) {
    if (QString e = arity(3); !e.isEmpty()) return e;
    double r = 0;
    if (QString e = readNumber(p[2], "correlation", id, -0.999, 0.999, false, &r); !e.isEmpty()) return e;
    out->base = Base::Multinormal;
    out->covariance = Eigen::Matrix2d{{1.0, r}, {r, 1.0}};
    if (p[1] == "bimodal") {
      out->transforms << Transform::NormalCdf << Transform::Bimodal;
      out->name = "Bimodal 1 × 1";
    } else {
      out->name = "Bivariate normal 1 × 1";
    }
    return {};
  }
  if (p.value(0) == "1v1" && p.value(1) == "additive") {
    if (QString e = arity(3); !e.isEmpty()) return e;
    if (QString e = readNumber(p[2], "epsilon", id, 1e-3, 100, false, &out->epsilon); !e.isEmpty()) return e;
    out->base = Base::AdditiveUniform;
    out->name = QStringLiteral("Uniform 1 × 1 (additive noise=%1)").arg(p[2]);
    return {};
  }
  if (p.value(0) == "multinormal" && p.value(1) == "dense") {
    if (QString e = arity(5); !e.isEmpty()) return e;
    if (QString e = readDims(p, 2, id, out); !e.isEmpty()) return e;
    const int n = out->dimX + out->dimY;
    double c = 0;  // (1 - c) I + c J is positive definite for -1/(n-1) < c < 1
    if (QString e = readNumber(p[4], "off_diag", id, -1.0 / (n - 1) + 1e-3, 0.999, false, &c); !e.isEmpty()) return e;
    out->base = Base::Multinormal;
    out->covariance = Eigen::MatrixXd::Constant(n, n, c);
    out->covariance.diagonal().setOnes();
    out->name = QStringLiteral("Multinormal %1 × %2 (dense)").arg(out->dimX).arg(out->dimY);
    return {};
  }
  if (p.value(0) == "multinormal" && p.value(1) == "sparse") {
    if (QString e = arity(6); !e.isEmpty()) return e;
    if (QString e = readDims(p, 2, id, out); !e.isEmpty()) return e;
    double k = 0, strength = 0;
    if (QString e = readNumber(p[4], "n_interacting", id, 0, std::min(out->dimX, out->dimY), true, &k); !e.isEmpty())
      return e;
    if (QString e = readNumber(p[5], "strength", id, 1e-3, 100, false, &strength); !e.isEmpty()) return e;
    out->base = Base::Multinormal;
    out->covariance = correlationOf(sparseLatentCovariance(out->dimX, out->dimY, int(k), strength));
    out->name = QStringLiteral("Multinormal %1 × %2 (%3)")
                    .arg(out->dimX)
                    .arg(out->dimY)
                    .arg(k == 2 ? QStringLiteral("2-pair") : QStringLiteral("sparse"));
    return {};
  }
  if (p.value(0) == "student" && p.value(1) == "identity") {
    if (QString e = arity(5); !e.isEmpty()) return e;
    if (QString e = readDims(p, 2, id, out); !e.isEmpty()) return e;
    if (QString e = readNumber(p[4], "dof", id, 0.1, 1000, false, &out->dof); !e.isEmpty()) return e;
    out->base = Base::StudentT;
    out->covariance = Eigen::MatrixXd::Identity(out->dimX + out->dimY, out->dimX + out->dimY);
    out->name = QStringLiteral("Student-t %1 × %2 (dof=%3)").arg(out->dimX).arg(out->dimY).arg(p[4]);
    return {};
  }
  return QStringLiteral("task: unknown task '%1' (the nearest ids: %2; milab-cli tasks lists them all)")
      .arg(id, nearestTaskIds(id).join(", "));
}

// Whether x (or y) lies in [0, 1] before the transform at `index` (swissroll and the bimodal inverse CDFs need it).
bool unitIntervalBefore(const TaskDefinition& t, int index) {
  if (index == 0) return t.base == Base::AdditiveUniform;  // its x is U(0, 1) (its y is not)
  return t.transforms[index - 1] == Transform::NormalCdf;
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
  TaskDefinition t;
  t.id = id;
  QString rest = id;
  QList<const Prefix*> prefixes;  // outermost first, as written
  for (bool found = true; found;) {
    found = false;
    for (const Prefix& p : kPrefixes)
      if (rest.startsWith(p.text)) {
        prefixes << &p;
        rest = rest.mid(int(std::strlen(p.text)));
        found = true;
      }
  }
  if (QString e = parseBase(rest, id, &t); !e.isEmpty()) return e;
  QString name = t.name;
  for (auto it = prefixes.crbegin(); it != prefixes.crend(); ++it) {  // innermost first
    const Prefix& p = **it;
    const int index = int(t.transforms.size());
    t.transforms << p.transform;
    if (p.transform == Transform::Spiral && (t.dimX < 2 || t.dimY < 3))
      return QStringLiteral(
                 "task: spiral in '%1' needs dim_x >= 2 and dim_y >= 3 (a rotation of y in its "
                 "second and third coordinates), got %2 × %3")
          .arg(id)
          .arg(t.dimX)
          .arg(t.dimY);
    if (p.transform == Transform::SwissRollX && (t.dimX != 1 || !unitIntervalBefore(t, index)))
      return QStringLiteral(
                 "task: swissroll_x in '%1' needs a 1-dimensional x in [0, 1] (write it on "
                 "normal_cdf-...)")
          .arg(id);
    name = p.transform == Transform::SwissRollX ? QStringLiteral("Swiss roll 2 × 1 @ %1").arg(name)
                                                : QStringLiteral("%1 @ %2").arg(p.name, name);
  }
  t.name = name;
  *out = t;
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
            .arg(number(m(i, j)), number(m(j, i)));
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
