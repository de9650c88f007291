// Replays the fuzz corpus (seeds, and every input that once failed) through checkExperimentBytes in the ordinary
// build: what the fuzzer found stays fixed without clang or a fuzzing run.
#include <QDir>
#include <QElapsedTimer>
#include <QtTest>

#include "engine/experiment.h"
#include "experiment_input.h"
#include "method/method_registry.h"
#include "time_limits.h"

using namespace milab;

class TestExperimentCorpus : public QObject {
  Q_OBJECT
  MethodRegistry registry_;

 private Q_SLOTS:
  void initTestCase() {
    registry_.loadDefault();
    QVERIFY(registry_.methods().size() >= 20);  // the readers see every method's plugin, as the runner does
  }

  void everyInputPasses_data() {
    QTest::addColumn<QString>("path");
    int files = 0;
    for (const char* dir : {"/tests/fuzz/corpus", "/tests/fuzz/regressions", "/resources/experiments"})
      for (const QFileInfo& f : QDir(MILAB_SOURCE_DIR + QString(dir)).entryInfoList(QDir::Files, QDir::Name)) {
        QTest::newRow(qPrintable(f.fileName())) << f.absoluteFilePath();
        ++files;
      }
    QVERIFY(files >= 30);
  }
  void everyInputPasses() {
    QFETCH(QString, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QElapsedTimer t;
    t.start();
    QCOMPARE(checkExperimentBytes(file.readAll(), registry_), QString());
    // The fuzzer's timeouts are findings too: a 75,000-cell grid once took 20 s to validate (regressions/).
    QVERIFY2(t.elapsed() < timeLimitMs(3000), qPrintable(QStringLiteral("%1 ms").arg(t.elapsed())));
  }

  // The checks themselves can fail: a grid over the cell limit is refused before it is built.
  void aHugeGridIsRefusedBeforeItIsBuilt() {
    Experiment e;
    QString grid = R"({"task": "gaussian2", "method": "infonce", "grid": {"seed": [%1], "K": [%2], "mi": [%3]}})";
    QStringList seeds, ks, mis;
    for (int i = 1; i <= 100; ++i) seeds << QString::number(i), mis << QString::number(i);
    for (int i = 2; i <= 101; ++i) ks << QString::number(i);
    QCOMPARE(parseExperiment(grid.arg(seeds.join(','), ks.join(','), mis.join(',')).toUtf8(), "f", &e), QString());
    QList<GridCell> cells;
    QElapsedTimer t;
    t.start();
    const QString err = expandExperiment(e, registry_, &cells);
    QVERIFY2(err.startsWith("grid: 1e+06 cells, more than the 20000 a grid may have"), qPrintable(err));
    QVERIFY(t.elapsed() < timeLimitMs(1000));
  }
};

QTEST_GUILESS_MAIN(TestExperimentCorpus)
#include "test_experiment_corpus.moc"
