// bmi's mixtures by id, and their bends.
#include "bend_and_mix.h"

#include <QLocale>
#include <QRegularExpression>
#include <cmath>

#include "beyond_normal.h"

namespace milab::bend_and_mix {

namespace {

QString shortest(double v) { return QString::number(v, 'g', QLocale::FloatingPointShortest); }

// Reads `text` as field `field` of `id` within [low, high] (an integer when `integer`): "" or the error line.
QString readField(const QString& id, const QString& field, const QString& text, double low, double high,
                  bool integer, double* out) {
  bool ok = false;
  const double v = text.toDouble(&ok);
  if (ok && std::isfinite(v) && v >= low && v <= high && (!integer || v == std::floor(v))) {
    *out = v;
    return {};
  }
  return QStringLiteral("task: %1 in '%2' must be %3 in [%4, %5], got '%6'")
      .arg(field, id, integer ? "an integer" : "a number", shortest(low), shortest(high), text);
}

struct Field {
  const char* name;
  double low, high;
  bool integer;
};

// The '-'-separated fields of `rest`, a '-' that follows a separator (or starts `rest`) read as a minus sign:
// "-0.5-3.0" is -0.5 and 3.0, so that a negative value is refused by its range, not by the count of fields.
QStringList fieldTexts(const QString& rest) {
  QStringList texts;
  bool negative = false;
  for (const QString& part : rest.split('-')) {
    if (part.isEmpty() && !negative) {
      negative = true;
      continue;
    }
    texts << (negative ? "-" + part : part);
    negative = false;
  }
  if (negative) texts << "-";
  return texts;
}

// Reads the '-'-separated fields after a family's prefix; "" or the error line.
QString readFields(const QString& id, const QString& rest, const QList<Field>& fields, QList<double>* out) {
  const QStringList texts = fieldTexts(rest);
  if (texts.size() != fields.size())
    return QStringLiteral("task: '%1' has %2 field%3 after its family's name, expected %4 (%5)")
        .arg(id)
        .arg(texts.size())
        .arg(texts.size() == 1 ? "" : "s")
        .arg(fields.size())
        .arg([&] {
          QStringList names;
          for (const Field& f : fields) names << f.name;
          return names.join(", ");
        }());
  for (int i = 0; i < fields.size(); ++i) {
    double v = 0;
    if (const QString err = readField(id, fields[i].name, texts[i], fields[i].low, fields[i].high, fields[i].integer, &v);
        !err.isEmpty())
      return err;
    *out << v;
  }
  return {};
}

MixtureComponent normal(double weight, std::initializer_list<double> mean, const Eigen::MatrixXd& covariance) {
  Eigen::VectorXd m(Eigen::Index(mean.size()));
  int i = 0;
  for (double v : mean) m(i++) = v;
  return {weight, m, covariance};
}

Eigen::MatrixXd diagonal(std::initializer_list<double> entries) {
  Eigen::VectorXd d(Eigen::Index(entries.size()));
  int i = 0;
  for (double v : entries) d(i++) = v;
  return d.asDiagonal();
}

// A 2 x 2 covariance of variances vx, vy and correlation r.
Eigen::MatrixXd covariance2(double vx, double vy, double r) {
  Eigen::MatrixXd c(2, 2);
  c << vx, r * std::sqrt(vx * vy), r * std::sqrt(vx * vy), vy;
  return c;
}

std::shared_ptr<const GaussianMixture> mixtureOf(int dimX, int dimY, QList<MixtureComponent> components) {
  return std::make_shared<const GaussianMixture>(dimX, dimY, std::move(components));
}

TaskDefinition taskX(double correlation) {
  TaskDefinition t;
  t.name = "X 1 × 1";
  t.mixture = mixtureOf(1, 1,
                        {normal(0.5, {0, 0}, covariance2(1, 1, -correlation)),
                         normal(0.5, {0, 0}, covariance2(1, 1, correlation))});
  return t;
}

TaskDefinition taskAi() {
  TaskDefinition t;
  t.name = "AI 1 × 1";
  const double w = 1.0 / 6;
  t.mixture = mixtureOf(1, 1,
                        {// the I: a stem and two serifs
                         normal(w, {1, 0}, diagonal({0.01, 0.2})), normal(w, {1, 1}, diagonal({0.05, 0.001})),
                         normal(w, {1, -1}, diagonal({0.05, 0.001})),
                         // the A: its bar and two slanted strokes
                         normal(w, {-0.8, -0.2}, diagonal({0.03, 0.001})),
                         normal(w, {-1.2, 0}, covariance2(0.04, 0.2, 0.95)),
                         normal(w, {-0.4, 0}, covariance2(0.04, 0.2, -0.95))});
  return t;
}

TaskDefinition taskWaves(int components, double amplitude, double frequency) {
  TaskDefinition t;
  t.name = "Waves 2 × 1";
  QList<MixtureComponent> parts;
  for (int i = 0; i < components; ++i)
    parts << normal(1, {1.5 * i, 0, 1.5 * (i % 4)}, diagonal({0.1, 1.0, 0.1}));
  t.mixture = mixtureOf(2, 1, parts);
  t.bend = Bend::Waves;
  t.waveAmplitude = amplitude;
  t.waveFrequency = frequency;
  return t;
}

TaskDefinition taskGalaxy(double speed, double distance) {
  TaskDefinition t;
  t.name = "Galaxy 2 × 1";
  const Eigen::MatrixXd unit = Eigen::MatrixXd::Identity(3, 3);
  const double h = distance / 2;
  t.mixture = mixtureOf(2, 1, {normal(0.5, {-h, -h, -h}, unit), normal(0.5, {h, h, h}, unit)});
  t.bend = Bend::Galaxy;
  t.spiralSpeed = speed;
  return t;
}

TaskDefinition taskConcentric(int dimX, int components) {
  TaskDefinition t;
  t.name = QStringLiteral("Concentric %1 × 1 (%2 components)").arg(dimX).arg(components);
  QList<MixtureComponent> parts;
  for (int i = 1; i <= components; ++i) {
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(dimX + 1);
    mean(dimX) = i;
    Eigen::VectorXd variances = Eigen::VectorXd::Constant(dimX + 1, double(i) * i);
    variances(dimX) = 1e-4;  // y = i, up to a standard deviation of 0.01
    parts << MixtureComponent{1, mean, variances.asDiagonal()};
  }
  t.mixture = mixtureOf(dimX, 1, parts);
  return t;
}

// `signal`: bmi's sparse normal's correlation; its rows kept with weight 1 - share, else drawn from its marginals.
TaskDefinition taskInliers(int dimX, int dimY, const Eigen::MatrixXd& signal, double share) {
  TaskDefinition t;
  t.name = QStringLiteral("Multinormal %1 × %2 (sparse, %3% inliers)").arg(dimX).arg(dimY).arg(shortest(100 * share));
  Eigen::MatrixXd independent = Eigen::MatrixXd::Zero(dimX + dimY, dimX + dimY);
  independent.topLeftCorner(dimX, dimX) = signal.topLeftCorner(dimX, dimX);
  independent.bottomRightCorner(dimY, dimY) = signal.bottomRightCorner(dimY, dimY);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(dimX + dimY);
  QList<MixtureComponent> parts;
  if (share < 1) parts << MixtureComponent{1 - share, zero, signal};
  if (share > 0) parts << MixtureComponent{share, zero, independent};
  t.mixture = mixtureOf(dimX, dimY, parts);
  return t;
}

constexpr int kMaxDim = 200;  // per side: a Monte Carlo truth over 100,000 rows of 400 columns takes seconds

}  // namespace

const QStringList& secondSuiteTaskIds() {
  static const QStringList ids{"1v1-additive-0.75",
                               "asinh-student-identity-1-1-1",
                               "1v1-X-0.9",
                               "1v1-AI",
                               "swissroll_x-normal_cdf-1v1-normal-0.75",
                               "2v1-waves-12-5.0-3.0",
                               "2v1-galaxy-0.5-3.0",
                               "3v1-concentric_gaussians-5",
                               "5v1-concentric_gaussians-5",
                               "3v1-concentric_gaussians-10",
                               "5v1-concentric_gaussians-10",
                               "25v1-concentric_gaussians-5",
                               "multinormal-dense-5-5-0.5",
                               "multinormal-dense-25-25-0.5",
                               "multinormal-dense-50-50-0.5",
                               "multinormal-sparse-5-5-2-2.0",
                               "multinormal-sparse-25-25-2-2.0",
                               "mult-sparse-w-inliers-5-5-2-2.0-0.2",
                               "mult-sparse-w-inliers-25-25-2-2.0-0.2",
                               "mult-sparse-w-inliers-5-5-2-2.0-0.5",
                               "mult-sparse-w-inliers-25-25-2-2.0-0.5",
                               "asinh-student-identity-2-2-1",
                               "asinh-student-identity-3-3-2",
                               "asinh-student-identity-5-5-2",
                               "spiral-multinormal-sparse-3-3-2-2.0",
                               "spiral-multinormal-sparse-5-5-2-2.0"};
  return ids;
}

const QStringList& bendAndMixTaskIds() {
  // The suite's ids this family reads, in the suite's order: the list is written once, above.
  static const QStringList ids = [] {
    QStringList own;
    TaskDefinition d;
    for (const QString& id : secondSuiteTaskIds())
      if (parseTaskId(id, &d).isEmpty()) own << id;
    return own;
  }();
  return ids;
}

QString parseTaskId(const QString& id, TaskDefinition* out) {
  TaskDefinition t;
  QList<double> f;
  QString err;
  static const QRegularExpression concentric(QStringLiteral("^([^-]+)v1-concentric_gaussians-(.*)$"));
  if (id.startsWith("1v1-X-")) {
    double r = 0;
    err = readField(id, "correlation", id.mid(6), -0.999, 0.999, false, &r);
    if (err.isEmpty()) t = taskX(r);
  } else if (id == "1v1-AI") {
    t = taskAi();
  } else if (id.startsWith("2v1-waves-")) {
    err = readFields(id, id.mid(10), {{"n_components", 1, 1000, true}, {"amplitude", 0, 100, false},
                                      {"frequency", 0, 100, false}}, &f);
    if (err.isEmpty()) t = taskWaves(int(f[0]), f[1], f[2]);
  } else if (id.startsWith("2v1-galaxy-")) {
    err = readFields(id, id.mid(11), {{"speed", 0, 10, false}, {"distance", 0, 100, false}}, &f);
    if (err.isEmpty()) t = taskGalaxy(f[0], f[1]);
  } else if (const QRegularExpressionMatch m = concentric.match(id); m.hasMatch()) {
    double dimX = 0;
    err = readField(id, "dim_x", m.captured(1), 1, kMaxDim, true, &dimX);
    if (err.isEmpty()) err = readFields(id, m.captured(2), {{"n_components", 1, 100, true}}, &f);
    if (err.isEmpty()) t = taskConcentric(int(dimX), int(f[0]));
  } else if (id.startsWith("mult-sparse-w-inliers-")) {
    err = readFields(id, id.mid(22), {{"dim_x", 1, kMaxDim, true}, {"dim_y", 1, kMaxDim, true},
                                      {"n_interacting", 0, kMaxDim, true}, {"strength", 1e-3, 100, false},
                                      {"inlier_fraction", 0, 1, false}}, &f);
    // The signal is the first suite's sparse normal of the same fields, which checks them against each other.
    beyond_normal::TaskDefinition sparse;
    if (err.isEmpty()) {
      const QString sparseId = QStringLiteral("multinormal-sparse-%1-%2-%3-%4")
                                   .arg(int(f[0]))
                                   .arg(int(f[1]))
                                   .arg(int(f[2]))
                                   .arg(id.section('-', 7, 7));
      err = beyond_normal::parseTaskId(sparseId, &sparse);
      if (!err.isEmpty()) err.replace(sparseId, id);
    }
    if (err.isEmpty()) t = taskInliers(int(f[0]), int(f[1]), sparse.covariance, f[4]);
  } else {
    return QStringLiteral("task: unknown task '%1'").arg(id);
  }
  if (!err.isEmpty()) return err;
  t.id = id;
  *out = t;
  return {};
}

Eigen::MatrixXd bendX(const TaskDefinition& task, const Eigen::MatrixXd& x) {
  Eigen::MatrixXd out = x;
  switch (task.bend) {
    case Bend::None:
      break;
    case Bend::Waves:
      // bmi: x0 += A sin(F x1), then (0.1 x0 - 0.8, 0.5 x1). Triangular: a bijection of the plane.
      out.col(0) = 0.1 * (x.col(0).array() + task.waveAmplitude * (task.waveFrequency * x.col(1).array()).sin()) - 0.8;
      out.col(1) = 0.5 * x.col(1);
      break;
    case Bend::Galaxy: {
      // bmi's Spiral with generator [[0, -1], [1, 0]]: x rotated by the angle speed |x|^2, which keeps |x|, so the
      // map is undone by the rotation back.
      const Eigen::ArrayXd angle = task.spiralSpeed * x.rowwise().squaredNorm().array();
      out.col(0) = angle.cos() * x.col(0).array() - angle.sin() * x.col(1).array();
      out.col(1) = angle.sin() * x.col(0).array() + angle.cos() * x.col(1).array();
      break;
    }
  }
  return out;
}

}  // namespace milab::bend_and_mix
