// bmi's second suite (plugins/tasks/bend-and-mix): each mixture's log density against a transcription in double
// (LU determinant and inverse, a plain sum of exponentials) and its integral by quadrature, the sampler's moments
// against the density's, the Monte Carlo truth against closed forms where the mixture has one, the bends as
// diffeomorphisms (their inverses and their Jacobians by finite differences), the suite's 26 ids, KSG and InfoNCE on
// one task of each family against bmi's "solved" rule, and malformed ids refused naming the field.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <Eigen/LU>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "bend_and_mix.h"
#include "beyond_normal.h"
#include "engine/device.h"
#include "engine/run.h"
#include "engine/run_spec.h"
#include "gaussian_mixture.h"
#include "method/method_registry.h"
#include "monte_carlo_truth.h"
#include "results/grid_files.h"
#include "results/run_files.h"
#include "results/run_message.h"
#include "results/summary_result.h"
#include "tasks/task_catalog.h"

using namespace milab;
using namespace milab::bend_and_mix;

namespace {

TaskDefinition defined(const QString& id) {
  TaskDefinition d;
  const QString err = parseTaskId(id, &d);
  if (!err.isEmpty()) qFatal("%s", qPrintable(err));
  return d;
}

// log p of one row under a part of the mixture, written out: each component's normal density from its covariance's
// LU determinant and inverse, weighted, summed, then the log.
double transcribedLogDensity(const GaussianMixture& m, Part part, const Eigen::VectorXd& row) {
  const int offset = part == Part::Y ? m.dimX() : 0;
  const int width = int(row.size());
  double density = 0;
  for (const MixtureComponent& c : m.components()) {
    const Eigen::MatrixXd cov = c.covariance.block(offset, offset, width, width);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(cov);
    const Eigen::VectorXd d = row - c.mean.segment(offset, width);
    const double quadratic = d.dot(lu.inverse() * d);
    density += c.weight * std::exp(-0.5 * quadratic) / std::sqrt(std::pow(2 * M_PI, width) * lu.determinant());
  }
  return std::log(density);
}

// Every point of a regular grid over [low, high]^dims, `n` a side, as rows; `cell` gets each point's volume.
Eigen::MatrixXd gridRows(int dims, double low, double high, int n, double* cell) {
  const double h = (high - low) / (n - 1);
  *cell = std::pow(h, dims);
  const int64_t points = int64_t(std::pow(n, dims));
  Eigen::MatrixXd rows(points, dims);
  for (int64_t i = 0; i < points; ++i) {
    int64_t rest = i;
    for (int d = 0; d < dims; ++d, rest /= n) rows(i, d) = low + h * double(rest % n);
  }
  return rows;
}

// A 2 x 2 determinant of the Jacobian of a map of the plane, by central differences at `at`.
template <typename Map>
double jacobianDeterminant(const Map& map, const Eigen::RowVector2d& at, double h = 1e-5) {
  Eigen::Matrix2d j;
  for (int c = 0; c < 2; ++c) {
    Eigen::MatrixXd plus = at, minus = at;
    plus(0, c) += h;
    minus(0, c) -= h;
    j.col(c) = ((map(plus) - map(minus)) / (2 * h)).transpose();
  }
  return j.determinant();
}

}  // namespace

class TestBendAndMix : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  void logDensitiesMatchTheirTranscription() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(7);
    for (const QString& id : bendAndMixTaskIds()) {
      const TaskDefinition d = defined(id);
      const GaussianMixture& m = *d.mixture;
      const Eigen::MatrixXd rows = m.sample(20, gen);
      const Eigen::VectorXd joint = m.logDensity(Part::Joint, rows), x = m.logDensity(Part::X, rows.leftCols(m.dimX())),
                            y = m.logDensity(Part::Y, rows.rightCols(m.dimY()));
      for (int i = 0; i < rows.rows(); ++i) {
        const Eigen::VectorXd r = rows.row(i).transpose();
        const double want[3] = {transcribedLogDensity(m, Part::Joint, r),
                                transcribedLogDensity(m, Part::X, r.head(m.dimX())),
                                transcribedLogDensity(m, Part::Y, r.tail(m.dimY()))};
        const double got[3] = {joint(i), x(i), y(i)};
        for (int k = 0; k < 3; ++k)
          QVERIFY2(std::abs(got[k] - want[k]) < 1e-8 * std::max(1.0, std::abs(want[k])),
                   qPrintable(QString("%1 part %2 row %3: %4 against %5").arg(id).arg(k).arg(i).arg(got[k]).arg(want[k])));
      }
    }
  }

  // The two 1 x 1 mixtures on a grid fine enough for the AI's narrowest strokes (standard deviation 0.03, three grid
  // steps), and the galaxy's and the waves' 3-d joints on a coarser one (their narrowest is 0.32, more than one grid
  // step: the trapezoid rule on a Gaussian is then exact to far below the tolerance): each integrates to 1, and the
  // sampler's means and covariances over 200,000 draws match the density's within 5 of their standard errors.
  void densitiesIntegrateToOneAndSamplesFollowThem() {
    struct Case {
      QString id;
      double low, high;
      int n;
    };
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(11);
    for (const Case& c : {Case{"1v1-X-0.9", -9, 9, 361}, Case{"1v1-AI", -4, 4, 801},
                          Case{"2v1-galaxy-0.5-3.0", -8, 8, 81}, Case{"2v1-waves-12-5.0-3.0", -4, 21, 101}}) {
      const TaskDefinition task = defined(c.id);
      const GaussianMixture& m = *task.mixture;
      const int dims = m.dimX() + m.dimY();
      double cell = 0;
      const Eigen::MatrixXd grid = gridRows(dims, c.low, c.high, c.n, &cell);
      const Eigen::VectorXd p = m.logDensity(Part::Joint, grid).array().exp().matrix() * cell;
      QVERIFY2(std::abs(p.sum() - 1) < 1e-3, qPrintable(QString("%1 integrates to %2").arg(c.id).arg(p.sum())));
      const Eigen::VectorXd mean = grid.transpose() * p;
      const Eigen::MatrixXd centred = grid.rowwise() - mean.transpose();
      const Eigen::MatrixXd cov = centred.transpose() * p.asDiagonal() * centred;
      const Eigen::MatrixXd s = m.sample(200000, gen);
      const Eigen::VectorXd sMean = s.colwise().mean();
      const Eigen::MatrixXd sCentred = s.rowwise() - sMean.transpose();
      const Eigen::MatrixXd sCov = sCentred.transpose() * sCentred / double(s.rows() - 1);
      for (int i = 0; i < dims; ++i) {
        const double se = std::sqrt(cov(i, i) / s.rows());
        QVERIFY2(std::abs(sMean(i) - mean(i)) < 5 * se,
                 qPrintable(QString("%1 mean %2: %3 against %4").arg(c.id).arg(i).arg(sMean(i)).arg(mean(i))));
        for (int j = 0; j < dims; ++j) {
          // The standard error of a sample covariance: sqrt((E[c_i^2 c_j^2] - cov_ij^2) / n), by the same quadrature.
          const double fourth = (centred.col(i).array().square() * centred.col(j).array().square() * p.array()).sum();
          const double seCov = std::sqrt((fourth - cov(i, j) * cov(i, j)) / s.rows());
          QVERIFY2(std::abs(sCov(i, j) - cov(i, j)) < 5 * seCov,
                   qPrintable(QString("%1 cov %2,%3: %4 against %5").arg(c.id).arg(i).arg(j).arg(sCov(i, j)).arg(cov(i, j))));
        }
      }
    }
  }

  // The mixtures with a closed form: no inliers is bmi's sparse normal (its exact MI), all inliers is independence
  // (every pointwise MI 0); a one-component X (correlation r, weight 1) is a bivariate normal, -log(1 - r^2) / 2.
  void monteCarloTruthsMatchClosedForms() {
    beyond_normal::TaskDefinition sparse;
    QCOMPARE(beyond_normal::parseTaskId("multinormal-sparse-5-5-2-2.0", &sparse), QString());
    const double exact = beyond_normal::exactMutualInformation(sparse);
    const MonteCarloTruth none = monteCarloMi(*defined("mult-sparse-w-inliers-5-5-2-2.0-0").mixture, 100000, 3);
    QVERIFY2(std::abs(none.mean - exact) < 3 * none.standardError && none.standardError < 0.01,
             qPrintable(QString("%1 +- %2 against %3").arg(none.mean).arg(none.standardError).arg(exact)));
    const MonteCarloTruth all = monteCarloMi(*defined("mult-sparse-w-inliers-5-5-2-2.0-1").mixture, 20000, 3);
    QVERIFY(std::abs(all.mean) < 1e-12 && all.standardError < 1e-12);
    Eigen::MatrixXd c(2, 2);
    c << 1, 0.6, 0.6, 1;
    const GaussianMixture one(1, 1, {MixtureComponent{1, Eigen::VectorXd::Zero(2), c}});
    const MonteCarloTruth t = monteCarloMi(one, 100000, 5);
    QVERIFY2(std::abs(t.mean + 0.5 * std::log(1 - 0.36)) < 3 * t.standardError,
             qPrintable(QString("%1 +- %2").arg(t.mean).arg(t.standardError)));
    // The cached truth is the one computed at the lab's seed and sample size.
    const TaskDefinition x = defined("1v1-X-0.9");
    const MonteCarloTruth cached = cachedTruth(x.id, *x.mixture), direct = monteCarloMi(*x.mixture, kTruthSamples, kTruthSeed);
    QCOMPARE(cached.mean, direct.mean);
    QCOMPARE(cached.standardError, direct.standardError);
  }

  // Each bend is a diffeomorphism of x: undone by its inverse (written here from bmi's definitions), with the
  // Jacobian determinant its closed form gives at every point, by finite differences: the waves' 0.1 x 0.5 (a
  // triangular shear, then a scaling), the galaxy's spiral 1 (a rotation by an angle that depends on |x| alone).
  void bendsAreDiffeomorphisms() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(13);
    const TaskDefinition waves = defined("2v1-waves-12-5.0-3.0"), galaxy = defined("2v1-galaxy-0.5-3.0");
    for (const TaskDefinition* d : {&waves, &galaxy}) {
      const Eigen::MatrixXd x = d->mixture->sample(200, gen).leftCols(2);
      const Eigen::MatrixXd bent = bendX(*d, x);
      Eigen::MatrixXd back(x.rows(), 2);
      if (d == &waves) {
        back.col(1) = 2 * bent.col(1);
        back.col(0) = (bent.col(0).array() + 0.8) / 0.1 - 5.0 * (3.0 * back.col(1).array()).sin();
      } else {
        const Eigen::ArrayXd angle = -0.5 * bent.rowwise().squaredNorm().array();
        back.col(0) = angle.cos() * bent.col(0).array() - angle.sin() * bent.col(1).array();
        back.col(1) = angle.sin() * bent.col(0).array() + angle.cos() * bent.col(1).array();
      }
      QVERIFY2((back - x).cwiseAbs().maxCoeff() < 1e-9, qPrintable(d->id));
      const double want = d == &waves ? 0.05 : 1.0;
      for (int i = 0; i < x.rows(); ++i) {
        const double det = jacobianDeterminant([d](const Eigen::MatrixXd& v) { return bendX(*d, v); }, x.row(i));
        QVERIFY2(std::abs(det - want) < 1e-4 * std::max(1.0, x.row(i).squaredNorm()),
                 qPrintable(QString("%1 row %2: %3").arg(d->id).arg(i).arg(det)));
      }
    }
  }

  void theSuiteHasItsTwentySixTasks() {
    QCOMPARE(secondSuiteTaskIds().size(), 26);
    QCOMPARE(QStringList(secondSuiteTaskIds()).removeDuplicates(), 0);
    for (const QString& id : secondSuiteTaskIds()) {
      const TaskInfo* t = findTask(id);
      QVERIFY2(t, qPrintable(id));
      const std::unique_ptr<TaskModel> m = buildTask(id, {}, 1);
      QVERIFY2(m && std::isfinite(m->totalMi()) && m->totalMi() > 0, qPrintable(id));
      // A Monte Carlo truth for this family's tasks, an exact one for the first suite's.
      QCOMPARE(t->family == "bend-and-mix", m->totalMiStandardError() > 0);
      if (t->family == "bend-and-mix") QVERIFY2(m->totalMiStandardError() < 0.005, qPrintable(id));
    }
  }

  // bmi's rule: a reading solves a task within a factor 1.5 of its truth. At 5,000 rows and seed 1, KSG solves one
  // task of each family; InfoNCE at the lab's defaults solves the X, the AI, the concentric and the inlier tasks and
  // reads the waves and the galaxy below the truth and above the factor's half (docs/benchmark.md, "bmi's second
  // suite").
  void ksgAndInfoNceReadOneTaskOfEachFamily() {
    const QStringList ids{"1v1-X-0.9", "1v1-AI", "2v1-waves-12-5.0-3.0", "2v1-galaxy-0.5-3.0",
                          "3v1-concentric_gaussians-5", "mult-sparse-w-inliers-5-5-2-2.0-0.2"};
    for (const QString& id : ids)
      for (const QString& method : {QStringLiteral("ksg"), QStringLiteral("infonce")}) {
        const RunResult r = finiteRun(id, method);
        const QString what = QString("%1 %2: %3 of %4").arg(method, id).arg(r.estimate).arg(r.trueMi);
        const bool solved = r.estimate >= r.trueMi / 1.5 && r.estimate <= 1.5 * r.trueMi;
        if (method == "ksg" || !id.contains("v1-waves") && !id.contains("galaxy"))
          QVERIFY2(solved, qPrintable(what));
        else
          QVERIFY2(r.estimate < r.trueMi && r.estimate > r.trueMi / 3, qPrintable(what));
      }
  }

  // A run's result carries the truth's standard error wherever the truth goes: summary.json (and back, as a resumed
  // grid and the history read it), grid.csv's column beside true_value, and the message a grid's MPI worker sends.
  void aRunCarriesItsTruthsStandardError() {
    const std::unique_ptr<TaskModel> model = buildTask("1v1-AI", {}, 1);
    const RunResult r = finiteRun("1v1-AI", "ksg");
    QCOMPARE(r.trueMi, model->totalMi());
    QCOMPARE(r.trueMiStderr, model->totalMiStandardError());
    QVERIFY(r.trueMiStderr > 0);
    RunSpec spec;
    QCOMPARE(runSpecFromFlat({{"task", "1v1-AI"}, {"method", "ksg"}, {"samples", 5000}}, registry_, &spec), QString());
    const QJsonObject summary = summaryJson(spec, r);
    QCOMPARE(summary.value("true_mi_stderr").toDouble(), r.trueMiStderr);
    RunResult back;
    QVERIFY(resultFromSummary(summary, &back));
    QCOMPARE(back.trueMiStderr, r.trueMiStderr);
    int index = -1;
    RunResult sent;
    QVector<CurvePoint> curve;
    QVERIFY(unpackRunResult(packRunResult(3, r, {}), &index, &sent, &curve));
    QCOMPARE(sent.trueMiStderr, r.trueMiStderr);
    QTemporaryDir tmp;
    GridCell cell{"ai", {}, spec};
    QCOMPARE(writeGridCsv(tmp.filePath("grid.csv"), {CellResult{cell, r, false}}), QString());
    QFile csv(tmp.filePath("grid.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList rows = QString(csv.readAll()).trimmed().split('\n');
    const int column = rows[0].split(',').indexOf("true_value_stderr");
    QCOMPARE(column, rows[0].split(',').indexOf("true_value") + 1);
    QVERIFY(std::abs(rows[1].split(',')[column].toDouble() - r.trueMiStderr) < 1e-12);  // ten significant digits
    // An exact truth writes no such field: summary.json and grid.csv stay as they were.
    const RunResult exact = finiteRun("1v1-normal-0.75", "ksg");
    QCOMPARE(exact.trueMiStderr, 0.0);
    QVERIFY(!summaryJson(spec, exact).contains("true_mi_stderr"));
  }

  void malformedIdsAreRefusedNamingTheField() {
    TaskDefinition d;
    QCOMPARE(parseTaskId("3v1-concentric_gaussians-0", &d),
             QString("task: n_components in '3v1-concentric_gaussians-0' must be an integer in [1, 100], got '0'"));
    QCOMPARE(parseTaskId("1v1-X-1.5", &d),
             QString("task: correlation in '1v1-X-1.5' must be a number in [-0.999, 0.999], got '1.5'"));
    QCOMPARE(parseTaskId("mult-sparse-w-inliers-5-5-2-2.0-1.2", &d),
             QString("task: inlier_fraction in 'mult-sparse-w-inliers-5-5-2-2.0-1.2' must be a number in [0, 1], got "
                     "'1.2'"));
    QVERIFY(parseTaskId("mult-sparse-w-inliers-2-2-3-2.0-0.2", &d).contains("n_interacting"));
    QVERIFY(parseTaskId("2v1-galaxy-0.5", &d).startsWith("task: '2v1-galaxy-0.5' has 1 field after"));
    // A negative value is refused by its range, not by the count of fields.
    QVERIFY(parseTaskId("2v1-galaxy--0.5-3.0", &d)
                .startsWith("task: speed in '2v1-galaxy--0.5-3.0' must be a number in [0, 10], got '-0.5'"));
    QVERIFY(parseTaskId("3v1-concentric_gaussians--2", &d).startsWith("task: n_components in"));
    QCOMPARE(parseTaskId("1v1-X--0.5", &d), QString());
    QVERIFY(parseTaskId("0v1-concentric_gaussians-5", &d).startsWith("task: dim_x in"));
    QVERIFY(parseTaskId("1v1-Y-0.9", &d).startsWith("task: unknown task"));
    // Through the catalog, as the runner and the window read an id: the same line.
    RunSpec s;
    s.task = "3v1-concentric_gaussians-0";
    s.method = "ksg";
    s.samples = 100;
    QVERIFY(validateRunSpec(&s, registry_).contains("n_components in '3v1-concentric_gaussians-0'"));
  }

 private:
  // What a user gets with no key but the task, 5,000 samples and the seed (the lab's recipe), and one permutation.
  RunResult finiteRun(const QString& task, const QString& method) {
    const QVariantMap flat{{"task", task},    {"method", method}, {"samples", 5000},
                           {"seed", 1},       {"device", "cpu"},  {"permutations", 1}};
    RunSpec s;
    const QString err = runSpecFromFlat(flat, registry_, &s);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    Run run(s, registry_.find(method));
    const RunResult r = runToCompletion(run);
    if (r.status != RunStatus::Finished) qFatal("%s %s did not finish", qPrintable(task), qPrintable(method));
    return r;
  }

  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestBendAndMix)
#include "test_bend_and_mix.moc"
