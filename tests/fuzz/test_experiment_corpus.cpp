// Replays the fuzz corpus (seeds, and every input that once failed) through checkExperimentBytes in the ordinary
// build: what the fuzzer found stays fixed without clang or a fuzzing run.
#include <QDir>
#include <QtTest>

#include "engine/experiment.h"
#include "experiment_input.h"
#include "method/method_registry.h"

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
    // No bound on the time it takes (that depends on the machine): a validation that hangs ends at the suite's
    // CTest limit, and the cell limit is checked below on a grid too large to build at all.
    QCOMPARE(checkExperimentBytes(file.readAll(), registry_), QString());
  }

  // The checks themselves can fail: a grid over the cell limit is refused before it is built. A billion cells
  // could not be built in this suite's time or memory on any machine, so the refusal needs no clock to show it.
  void aHugeGridIsRefusedBeforeItIsBuilt() {
    Experiment e;
    QString grid = R"({"task": "gaussian2", "method": "infonce", "grid": {"seed": [%1], "K": [%2], "steps": [%3]}})";
    QStringList seeds, ks, steps;
    for (int i = 1; i <= 1000; ++i) seeds << QString::number(i), steps << QString::number(i);
    for (int i = 2; i <= 1001; ++i) ks << QString::number(i);
    QCOMPARE(parseExperiment(grid.arg(seeds.join(','), ks.join(','), steps.join(',')).toUtf8(), "f", &e), QString());
    QList<GridCell> cells;
    const QString err = expandExperiment(e, registry_, &cells);
    QVERIFY2(err.startsWith("grid: 1e+09 cells, more than the 20000 a grid may have"), qPrintable(err));
    QVERIFY(cells.isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestExperimentCorpus)
#include "test_experiment_corpus.moc"
