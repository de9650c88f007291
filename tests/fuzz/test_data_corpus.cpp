// Replays the data-file corpus (tests/fuzz/data-corpus: well-formed and broken CSV, .npy and .npz files, and every
// input the fuzzer once failed on) in the ordinary build: through the table reader (checkDataFile), and through the
// run's validation as milab-cli would see the file (task data, a neural method and KSG). Each either reads, or is
// refused in one line that names its key; nothing crashes.
#include <QDir>
#include <QtTest>

#include "data_input.h"
#include "engine/run.h"
#include "method/method_registry.h"

using namespace milab;

namespace {

QString corpusDir() { return QStringLiteral(MILAB_SOURCE_DIR "/tests/fuzz/data-corpus"); }

}  // namespace

class TestDataCorpus : public QObject {
  Q_OBJECT
  MethodRegistry registry_;
  int readable_ = 0, refused_ = 0;

 private Q_SLOTS:
  void initTestCase() { registry_.loadDefault(); }

  void everyFileKeepsTheContract_data() {
    QTest::addColumn<QString>("path");
    for (const QFileInfo& f : QDir(corpusDir()).entryInfoList(QDir::Files, QDir::Name))
      QTest::newRow(qPrintable(f.fileName())) << f.absoluteFilePath();
  }
  void everyFileKeepsTheContract() {
    QFETCH(QString, path);
    QCOMPARE(checkDataFile(path), QString());
    for (const QString method : {"infonce", "ksg"}) {
      RunSpec s;
      s.task = "data";
      s.method = method;
      s.device = "cpu";
      s.taskParams = {{"file", path}, {"x_columns", "0"}, {"y_columns", "1"}};
      const QString err = validateRunSpec(&s, registry_);
      if (err.isEmpty()) {
        ++readable_;
        continue;
      }
      ++refused_;
      QVERIFY2(!err.contains('\n'), qPrintable(err));
      QVERIFY2(QRegularExpression("^[a-z_]+: ").match(err).hasMatch(), qPrintable(err));
    }
  }

  // The corpus holds both kinds: files a run reads and files it refuses.
  void cleanupTestCase() {
    QVERIFY(QDir(corpusDir()).entryList(QDir::Files).size() >= 25);
    QVERIFY(readable_ >= 4);
    QVERIFY(refused_ >= 20);
  }
};

QTEST_GUILESS_MAIN(TestDataCorpus)
#include "test_data_corpus.moc"
