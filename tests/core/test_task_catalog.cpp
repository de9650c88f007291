// Tasks are plugins: the catalog finds them (the covariate Gaussians and the Beyond-Normal benchmark), resolves
// ids and variants, refuses what a task cannot offer with both names, and every method that can read a task's
// samples trains on one whose x and y differ in size (the Swiss roll: x in R^2, y in R^1).
#include <ATen/ATen.h>

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "engine/device.h"
#include "engine/run.h"
#include "method/estimator.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"
#include "tasks/task_preview.h"

using namespace milab;

class TestTaskCatalog : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    QVERIFY(taskLoadErrors().isEmpty());
  }

  // Task folders are found as method folders are (plugins/tasks/CMakeLists.txt adds every folder with a
  // CMakeLists.txt): each folder's plugin is built and loaded, its family's tasks listed, and nothing else is.
  void everyTaskFolderIsLoaded() {
    const QDir tasks(QStringLiteral(MILAB_SOURCE_DIR "/plugins/tasks"));
    QSet<QString> folderFamilies, listedFamilies;
    for (const QString& folder : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
      if (!QFileInfo::exists(tasks.filePath(folder + "/CMakeLists.txt"))) continue;
      QFile json(tasks.filePath(folder + "/" + folder + ".json"));  // the plugin's metadata, named for its folder
      QVERIFY2(json.open(QIODevice::ReadOnly), qPrintable(folder));
      folderFamilies << QJsonDocument::fromJson(json.readAll()).object().value("family").toString();
    }
    for (const TaskInfo& t : availableTasks()) listedFamilies << t.family;
    QCOMPARE(folderFamilies.size(), 7);
    QCOMPARE(listedFamilies, folderFamilies);
  }

  // Adding a task folder needs no other edit: tests/fixtures/task-folders is handed to milab_add_task_folders, the
  // function that adds plugins/tasks' folders, and its one folder (named nowhere else) is built into a plugin that
  // milab-cli, given the fixture's plugin folder beside the lab's, lists with its family and truth.
  void aNewTaskFolderIsFoundWithNoOtherEdit() {
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString lab = MethodRegistry::defaultPluginDirs().join(':');
    env.insert(QStringLiteral("MILAB_PLUGIN_PATH"), lab + ':' + QStringLiteral(MILAB_DISCOVERY_PLUGIN_DIR));
    cli.setProcessEnvironment(env);
    cli.start(QStringLiteral(MILAB_CLI_PATH), {QStringLiteral("tasks"), QStringLiteral("--long")});
    QVERIFY(cli.waitForFinished(-1));
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    QCOMPARE(cli.exitCode(), 0);
    const qsizetype at = out.indexOf(QStringLiteral("\nfixture-independent-normals\t"));
    QVERIFY2(at >= 0, qPrintable(out));
    const QString entry = out.mid(at + 1, out.indexOf(QStringLiteral("\n\n"), at) - at - 1);
    QVERIFY2(entry.contains(QStringLiteral("\tFixture: independent normals\tI(x;y) = 0.0000\n")), qPrintable(entry));
    QVERIFY2(entry.contains(QStringLiteral("\n  family fixture-tasks;")), qPrintable(entry));
    // Without the fixture's folder the same command does not list it: the task came from that folder alone.
    env.insert(QStringLiteral("MILAB_PLUGIN_PATH"), lab);
    cli.setProcessEnvironment(env);
    cli.start(QStringLiteral(MILAB_CLI_PATH), {QStringLiteral("tasks")});
    QVERIFY(cli.waitForFinished(-1));
    QCOMPARE(cli.exitCode(), 0);
    QVERIFY(!cli.readAllStandardOutput().contains("fixture-independent-normals"));
  }

  void listsEveryFamily() {
    const QList<TaskInfo>& tasks = availableTasks();
    QCOMPARE(tasks.size(), 61);
    QCOMPARE(tasks[43].id, QString("1v1-X-0.9"));  // bmi's second suite's mixtures after its first suite
    QCOMPARE(tasks[43].family, QString("bend-and-mix"));
    QCOMPARE(tasks[56].id, QString("hmm-dialogue"));  // the dialogues of tokens after the mixtures
    QVERIFY(tasks[56].capabilities.tokens && tasks[56].capabilities.subview && tasks[56].capabilities.pmi);
    QCOMPARE(tasks[58].id, QString("class-channel-images"));  // after the user's table, before the image views
    QCOMPARE(tasks[59].id, QString("class-channel-text"));
    QCOMPARE(tasks[57].id, QString("data"));
    QVERIFY(tasks[57].dataset);
    QCOMPARE(tasks.last().id, QString("fashion-mnist-views"));  // images last: no method of vectors reads them
    QVERIFY(tasks.last().capabilities.images && !tasks.last().dataset);
    QCOMPARE(tasks[0].id, QString("gaussian2"));  // the plugins' "order": the Gaussians first
    QCOMPARE(tasks[1].id, QString("gaussian3"));
    QVERIFY(tasks[1].capabilities.subview && tasks[1].capabilities.pmi && tasks[1].capabilities.densities);
    QVERIFY(!tasks[0].capabilities.subview && tasks[0].capabilities.pmi);
    for (int i = 2; i < 43; ++i) {
      QCOMPARE(tasks[i].family, QString("beyond-normal"));
      QVERIFY(!tasks[i].capabilities.subview && !tasks[i].capabilities.pmi && !tasks[i].capabilities.densities);
      QCOMPARE(tasks[i].params.isEmpty(), i < 42);  // an id names every parameter; task beyond-normal takes keys
    }
    QCOMPARE(tasks[42].id, QString("beyond-normal"));
  }

  void resolvesVariantsAndNamesTheNearest() {
    const TaskInfo* v = findTask("student-identity-4-3-5");
    QVERIFY(v);
    QCOMPARE(v->dimX, 4);
    QCOMPARE(v->dimY, 3);
    QCOMPARE(findTask("student-identity-4-3-5"), v);  // one TaskInfo per id, kept
    QVERIFY(!findTask("gaussian4"));
    QVERIFY(unknownTaskError("student-identity-4-3-5").isEmpty());
    QVERIFY2(unknownTaskError("gausian3").startsWith("task: unknown task 'gausian3' (the nearest ids: gaussian3"),
             qPrintable(unknownTaskError("gausian3")));
    QVERIFY2(unknownTaskError("multinormal-dense-2-2-1.5").startsWith("task: off_diag in"),
             qPrintable(unknownTaskError("multinormal-dense-2-2-1.5")));
  }

  // The truth reaches a run through the plugin unchanged: the Student-t correction for student-identity-2-2-1
  // (0.43195 nats, checked against a Monte Carlo of 10^6 samples in test_beyond_normal), a multinormal's
  // log-determinants for the dense 2 x 2 at 0.5, whose equicorrelation matrix has eigenvalues 2.5 and 0.5 (x3):
  // I = 1/2 (2 log det(Sigma_x) - log det Sigma) with det(Sigma_x) = 0.75.
  void truthsComeFromThePlugin() {
    const std::unique_ptr<TaskModel> t = buildTask("student-identity-2-2-1", {}, 1);
    QVERIFY(t);
    QVERIFY(std::abs(t->totalMi() - 0.43195) < 1e-4);
    const std::unique_ptr<TaskModel> dense = buildTask("multinormal-dense-2-2-0.5", {}, 1);
    const double expected = 0.5 * (2 * std::log(0.75) - std::log(2.5 * 0.5 * 0.5 * 0.5));
    QVERIFY(std::abs(dense->totalMi() - expected) < 1e-12);
    QCOMPARE(dense->truths().size(), 1);
    QCOMPARE(dense->truths()[0].name, QString("I(x;y)"));
    QVERIFY(!std::isfinite(dense->largestMi()));  // no family-wide limit: only 2 x target + 5 applies
  }

  // Task beyond-normal makes a family's variant from keys: the same law, and the same truth, as the id it spells
  // (bmi writes the last transform first); a key out of the family's range is named as a key.
  void variantsByKeysAreTheIdsTheySpell() {
    ParamMap keys{
        {"base", "student-identity"}, {"dim_x", 4}, {"dim_y", 3}, {"dof", 5}, {"transforms", "half_cube,spiral"}};
    QVERIFY(validateTaskParams(*findTask("beyond-normal"), &keys).isEmpty());
    const std::unique_ptr<TaskModel> byKeys = buildTask("beyond-normal", keys, 1);
    const std::unique_ptr<TaskModel> byId = buildTask("spiral-half_cube-student-identity-4-3-5", {}, 1);
    QVERIFY(byKeys && byId);
    QCOMPARE(byKeys->totalMi(), byId->totalMi());
    QCOMPARE(byKeys->dimX(), 4);
    at::Generator a = estimatorGenerator(3), b = estimatorGenerator(3);
    const Batch fromKeys = byKeys->sampler(c10::Device(c10::kCPU))->sampleJoint(64, a);
    const Batch fromId = byId->sampler(c10::Device(c10::kCPU))->sampleJoint(64, b);
    QVERIFY(at::equal(fromKeys.y, fromId.y));
    ParamMap bad{{"base", "multinormal-sparse"}, {"dim_x", 2}, {"dim_y", 2}, {"n_interacting", 3}};
    const QString err = validateTaskParams(*findTask("beyond-normal"), &bad);
    QVERIFY2(
        err.startsWith("n_interacting: must be an integer in [0, 2], got '3' (variant multinormal-sparse-2-2-3-2)"),
        qPrintable(err));
    ParamMap unknown{{"transforms", "normal_cdf,twist"}};
    QVERIFY(validateTaskParams(*findTask("beyond-normal"), &unknown).startsWith("transforms: 'twist' is not one of"));
  }

  // Every listed Beyond-Normal id and the keys that spell it build the same task (issue 50: both fill one typed
  // variant): the same truth, dimensions and samples. The keys are written from the id here by a
  // transcription of bmi's grammar of its own (prefixes, then the family and its fields in order).
  void everyBenchmarkIdIsTheTaskItsKeysBuild() {
    const QStringList prefixes{"normal_cdf", "half_cube", "asinh", "wiggly", "spiral", "swissroll_x"};
    const QList<QPair<QString, QStringList>> families{
        {"1v1-normal", {"correlation"}},
        {"1v1-bimodal", {"correlation"}},
        {"1v1-additive", {"epsilon"}},
        {"multinormal-dense", {"dim_x", "dim_y", "off_diag"}},
        {"multinormal-sparse", {"dim_x", "dim_y", "n_interacting", "strength"}},
        {"student-identity", {"dim_x", "dim_y", "dof"}}};
    int compared = 0;
    for (const TaskInfo& info : availableTasks()) {
      if (info.family != "beyond-normal" || info.id == "beyond-normal") continue;
      QString rest = info.id;
      QStringList transforms;  // outermost first, as written
      for (bool found = true; found;) {
        found = false;
        for (const QString& p : prefixes)
          if (rest.startsWith(p + "-")) transforms << p, rest = rest.mid(p.size() + 1), found = true;
      }
      std::reverse(transforms.begin(), transforms.end());
      ParamMap keys{{"transforms", transforms.join(',')}};
      for (const auto& [base, fields] : families) {
        if (!rest.startsWith(base + "-")) continue;
        keys.insert("base", base);
        const QStringList numbers = rest.mid(base.size() + 1).split('-');
        QCOMPARE(numbers.size(), fields.size());
        for (int i = 0; i < fields.size(); ++i) keys.insert(fields[i], numbers[i].toDouble());
      }
      QVERIFY2(keys.contains("base"), qPrintable(info.id));
      const QString err = validateTaskParams(*findTask("beyond-normal"), &keys);
      QVERIFY2(err.isEmpty(), qPrintable(info.id + ": " + err));
      const std::unique_ptr<TaskModel> byKeys = buildTask("beyond-normal", keys, 1);
      const std::unique_ptr<TaskModel> byId = buildTask(info.id, {}, 1);
      QVERIFY2(byKeys && byId, qPrintable(info.id));
      QCOMPARE(byKeys->totalMi(), byId->totalMi());
      QCOMPARE(byKeys->dimX(), byId->dimX());
      QCOMPARE(byKeys->dimY(), byId->dimY());
      at::Generator a = estimatorGenerator(5), b = estimatorGenerator(5);
      const Batch fromKeys = byKeys->sampler(c10::Device(c10::kCPU))->sampleJoint(32, a);
      const Batch fromId = byId->sampler(c10::Device(c10::kCPU))->sampleJoint(32, b);
      QVERIFY2(at::equal(fromKeys.x, fromId.x) && at::equal(fromKeys.y, fromId.y), qPrintable(info.id));
      ++compared;
    }
    QCOMPARE(compared, 40);
  }

  // Bases multinormal and student take a covariance (dispersion) of the user's own. The truths against
  // determinants written out here, not the plugin's log-determinant: I = 1/2 log(det Sxx det Syy / det S); a
  // Student-t's adds the dof term, which a diagonal dispersion leaves alone (MI is scale invariant). The samples
  // have the covariance asked for.
  void variantsByCovarianceHaveTheirClosedFormTruths() {
    // The determinant of the symmetric [a b c; b d e; c e f].
    const auto det3 = [](double a, double b, double c, double d, double e, double f) {
      return a * (d * f - e * e) - b * (b * f - e * c) + c * (b * e - d * c);
    };
    ParamMap gauss{{"base", "multinormal"},
                   {"dim_x", 1},
                   {"dim_y", 2},
                   {"covariance", "2, 0.6, 0.3; 0.6, 1, 0.2; 0.3 0.2 1.5;"}};
    QVERIFY(validateTaskParams(*findTask("beyond-normal"), &gauss).isEmpty());
    const std::unique_ptr<TaskModel> g = buildTask("beyond-normal", gauss, 1);
    QVERIFY(g);
    const double expected = 0.5 * std::log(2.0 * (1.0 * 1.5 - 0.2 * 0.2) / det3(2, 0.6, 0.3, 1, 0.2, 1.5));
    QVERIFY2(std::abs(g->totalMi() - expected) < 1e-12, qPrintable(QString::number(g->totalMi() - expected)));
    at::Generator gen = estimatorGenerator(4);
    const Batch b = g->sampler(c10::Device(c10::kCPU))->sampleJoint(200000, gen);
    const at::Tensor xy = at::cat({b.x, b.y}, 1).to(at::kDouble);
    const at::Tensor cov = at::matmul(xy.t(), xy) / double(xy.size(0));
    const double want[3][3] = {{2, 0.6, 0.3}, {0.6, 1, 0.2}, {0.3, 0.2, 1.5}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        QVERIFY2(std::abs(cov[i][j].item<double>() - want[i][j]) < 0.03,
                 qPrintable(QString::number(cov[i][j].item<double>())));

    const std::unique_ptr<TaskModel> identity = buildTask("student-identity-1-1-3", {}, 1);
    ParamMap scaled{{"base", "student"}, {"dim_x", 1}, {"dim_y", 1}, {"dof", 3}, {"covariance", "4, 0; 0, 0.25"}};
    QVERIFY(validateTaskParams(*findTask("beyond-normal"), &scaled).isEmpty());
    QCOMPARE(buildTask("beyond-normal", scaled, 1)->totalMi(), identity->totalMi());
    ParamMap correlated{{"base", "student"}, {"dim_x", 1}, {"dim_y", 1}, {"dof", 3}, {"covariance", "1, 0.8; 0.8, 1"}};
    QVERIFY(validateTaskParams(*findTask("beyond-normal"), &correlated).isEmpty());
    QVERIFY(std::abs(buildTask("beyond-normal", correlated, 1)->totalMi() -
                     (identity->totalMi() - 0.5 * std::log(1 - 0.64))) < 1e-12);
  }

  void badCovariancesAreRefusedNamingTheKey_data() {
    QTest::addColumn<QString>("base");
    QTest::addColumn<QString>("covariance");
    QTest::addColumn<QString>("error");
    QTest::newRow("missing") << "multinormal" << "" << "covariance: base multinormal needs its 2 x 2 covariance";
    QTest::newRow("rows") << "multinormal" << "1, 0" << "covariance: 1 rows, expected 2 (dim_x + dim_y";
    QTest::newRow("entries") << "student" << "1, 0, 0; 0, 1" << "covariance: row 1 has 3 entries, expected 2";
    QTest::newRow("text") << "multinormal" << "1, a; 0, 1" << "covariance: row 1, entry 2 is 'a', not a finite number";
    QTest::newRow("inf") << "multinormal" << "1, 0; 0, inf" << "covariance: row 2, entry 2 is 'inf', not a finite";
    QTest::newRow("asymmetric") << "multinormal" << "1, 0.5; 0.4, 1" << "covariance: not symmetric: entry (1, 2) is 0.5 but (2, 1) is 0.4";
    QTest::newRow("not PD") << "multinormal" << "1, 2; 2, 1" << "covariance: must be positive definite (smallest eigenvalue -1";
    QTest::newRow("singular") << "student" << "1, 1; 1, 1" << "covariance: must be positive definite";
    QTest::newRow("other base") << "multinormal-dense" << "1, 0; 0, 1" << "covariance: only bases multinormal and student take one (base is multinormal-dense)";
  }
  void badCovariancesAreRefusedNamingTheKey() {
    QFETCH(QString, base);
    QFETCH(QString, covariance);
    QFETCH(QString, error);
    ParamMap keys{{"base", base}, {"dim_x", 1}, {"dim_y", 1}, {"covariance", covariance}};
    const QString err = validateTaskParams(*findTask("beyond-normal"), &keys);
    QVERIFY2(err.startsWith(error), qPrintable(err));
    QVERIFY(!buildTask("beyond-normal", keys, 1));
  }

  void previewDrawsTheTasksSamples() {
    const std::unique_ptr<TaskModel> t = buildTask("swissroll_x-normal_cdf-1v1-normal-0.75", {}, 1);
    QCOMPARE(t->dimX(), 2);
    QCOMPARE(t->dimY(), 1);
    const SamplePreview a = previewSamples(*t, 500, 7, 1, 0), b = previewSamples(*t, 500, 7, 1, 0);
    QCOMPARE(a.x.size(), 500);
    QCOMPARE(a.x, b.x);  // the same seed, the same picture
    double lo = 1e9, hi = -1e9;
    for (double v : a.x) lo = std::min(lo, v), hi = std::max(hi, v);
    QVERIFY(hi - lo > 0.1);  // a spread, not one point
  }

  // Every method either runs on the Swiss roll (x in R^2, y in R^1: a critic sized by one side for both would
  // fail) or is refused naming itself and the task.
  void everyMethodRunsOrIsRefusedWithBothNames_data() {
    QTest::addColumn<QString>("method");
    for (const QString& id : registry_.ids()) QTest::newRow(qPrintable(id)) << id;
  }
  void everyMethodRunsOrIsRefusedWithBothNames() {
    QFETCH(QString, method);
    const QString task = "swissroll_x-normal_cdf-1v1-normal-0.75";
    const MethodInfo info = registry_.find(method)->info();
    RunSpec s;
    s.task = task;
    s.method = method;
    s.steps = 300;  // nce-density's plausibility rule wants its log Z halfway to 0 by the end
    s.seed = 1;
    s.device = "cpu";
    if (findSpec(info.params, "K")) s.methodParams.insert("K", 16);
    if (findSpec(info.params, "set_size")) s.methodParams.insert("set_size", 500);
    const QString err = validateRunSpec(&s, registry_);
    const QString mismatch = methodTaskMismatch(info, s.methodParams, *findTask(task));
    if (!mismatch.isEmpty()) {
      QCOMPARE(err, mismatch);
      QVERIFY(err.contains(method) && err.contains(task));
      return;
    }
    QVERIFY2(err.isEmpty(), qPrintable(err));
    Run run(s, registry_.find(method));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    QVERIFY(std::isfinite(r.estimate));
    if (info.target == Target::TotalMi) QVERIFY(std::abs(r.trueMi - buildTask(task, {}, 1)->totalMi()) < 1e-12);
  }

 private:
  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestTaskCatalog)
#include "test_task_catalog.moc"
