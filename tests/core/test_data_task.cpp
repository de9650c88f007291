// A user's own data (task data): a table written here from a known Gaussian reads back as what was written, in CSV,
// .npy and .npz; KSG and InfoNCE read near its truth, each beside a permutation baseline near 0; and every kind of
// bad file is refused before anything runs, naming its line and column.
#include <zip.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <random>

#include "data/held_tables.h"
#include "data_table.h"
#include "engine/device.h"
#include "engine/run.h"
#include "method/estimator.h"
#include "method/method_registry.h"
#include "tasks/task.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

// I(x; y) of a bivariate normal with correlation 0.8: -1/2 log(1 - 0.64).
const double kRho = 0.8, kTruth = -0.5 * std::log(1 - kRho * kRho);

QVector<double> gaussianPairs(int rows) {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> n;
  QVector<double> v;
  for (int i = 0; i < rows; ++i) {
    const double x = n(rng), y = kRho * x + std::sqrt(1 - kRho * kRho) * n(rng);
    v << x << y;
  }
  return v;
}

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
  QFile f(dir.filePath(name));
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(name));
  f.write(bytes);
  return f.fileName();
}

QByteArray csvOf(const QVector<double>& v) {
  QByteArray b = "x,y\n";
  for (int i = 0; i < v.size(); i += 2)
    b += QByteArray::number(v[i], 'g', 17) + "," + QByteArray::number(v[i + 1], 'g', 17) + "\n";
  return b;
}

// NumPy's .npy, version 1.0, little-endian float64: what numpy.save writes for a [rows, 2] array, in C order
// (row by row, as v holds it) or, for np.asfortranarray(a), in Fortran order (column by column).
QByteArray npyOf(QVector<double> v, bool fortranOrder = false) {
  const qsizetype rows = v.size() / 2;
  if (fortranOrder) {
    QVector<double> byColumn;
    for (int c = 0; c < 2; ++c)
      for (qsizetype r = 0; r < rows; ++r) byColumn << v[2 * r + c];
    v = byColumn;
  }
  QByteArray header = QByteArray("{'descr': '<f8', 'fortran_order': ") + (fortranOrder ? "True" : "False") +
                      ", 'shape': (" + QByteArray::number(rows) + ", 2), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  QByteArray b("\x93NUMPY\x01\x00", 8);
  b += char(header.size() & 0xff);
  b += char(header.size() >> 8);
  b += header;
  b += QByteArray(reinterpret_cast<const char*>(v.constData()), v.size() * sizeof(double));
  return b;
}

QString writeNpz(const QTemporaryDir& dir, const QByteArray& npy) {
  const QString path = dir.filePath("d.npz");
  int error = 0;
  zip_t* z = zip_open(QFile::encodeName(path).constData(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  zip_source_t* src = zip_source_buffer(z, npy.constData(), npy.size(), 0);
  zip_file_add(z, "arr_0.npy", src, ZIP_FL_OVERWRITE);
  zip_close(z);  // writes the archive; the buffer is still alive here
  return path;
}

}  // namespace

class TestDataTask : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    QVERIFY(dir_.isValid());
  }

  void csvNpyAndNpzReadTheSameTable() {
    const QVector<double> v = gaussianPairs(500);
    DataTable csv, npy, fortran, npz;
    QCOMPARE(readDataTable(write(dir_, "d.csv", csvOf(v)), HeaderMode::Auto, &csv), QString());
    QCOMPARE(readDataTable(write(dir_, "d.npy", npyOf(v)), HeaderMode::Auto, &npy), QString());
    QCOMPARE(readDataTable(write(dir_, "f.npy", npyOf(v, true)), HeaderMode::Auto, &fortran), QString());
    QCOMPARE(readDataTable(writeNpz(dir_, npyOf(v)), HeaderMode::Auto, &npz), QString());
    for (const DataTable* t : {&csv, &npy, &fortran, &npz}) {
      QCOMPARE(t->rows, 500);
      QCOMPARE(t->columns, 2);
      QCOMPARE(t->values, v);
    }
    QCOMPARE(csv.header, (QStringList{"x", "y"}));
  }

  // A first line of numbers past a double's range is a row, not a header: too small reads as 0.
  void aFirstLineOfTinyNumbersIsARow() {
    DataTable t;
    QCOMPARE(readDataTable(write(dir_, "tiny.csv", "1e-400,2\n3,4\n"), HeaderMode::Auto, &t), QString());
    QCOMPARE(t.rows, 2);
    QVERIFY(t.header.isEmpty());
    QCOMPARE(t.values, (QVector<double>{0, 2, 3, 4}));
  }

  // A table held in memory (the Python module's arrays) is read as a file of the same numbers: KSG, which reads every
  // row at once, gives the same double; a released name is refused naming it.
  void aHeldTableReadsAsTheFileOfItsNumbers() {
    const QVector<double> v = gaussianPairs(600);
    auto table = std::make_shared<DataTable>();
    table->rows = 600;
    table->columns = 2;
    table->values = v;
    const QString held = holdTable(table);
    const auto reading = [&](const QString& file, RunResult* out) {
      RunSpec s;
      s.task = "data";
      s.taskParams = {{"file", file}, {"x_columns", "0"}, {"y_columns", "1"}};
      s.method = "ksg";
      s.seed = 3;
      s.device = "cpu";
      if (const QString err = validateRunSpec(&s, registry_); !err.isEmpty()) return err;
      Run run(s, registry_.find("ksg"));
      *out = runToCompletion(run);
      return QString();
    };
    RunResult fromFile, fromMemory;
    QCOMPARE(reading(write(dir_, "held.npy", npyOf(v)), &fromFile), QString());
    QCOMPARE(reading(held, &fromMemory), QString());
    QCOMPARE(fromMemory.status, RunStatus::Finished);
    QCOMPARE(fromMemory.estimate, fromFile.estimate);
    QCOMPARE(fromMemory.baseline, fromFile.baseline);
    releaseTable(held);
    RunResult none;
    QCOMPARE(reading(held, &none), QStringLiteral("file: '%1' names no table held in memory (released)").arg(held));
  }

  // A held table of float32 blocks (the Python module's float32 arrays) is read where it lies: the task's rows are
  // the caller's memory (a sample drawn after the memory changed shows the change), the model keeps the memory's
  // owner alive, and KSG reads the same double as from a file of the same numbers.
  void aHeldTableOfFloatBlocksIsReadInPlace() {
    const QVector<double> v = gaussianPairs(600);
    auto xs = std::make_shared<std::vector<float>>(), ys = std::make_shared<std::vector<float>>();
    QVector<double> asRead;  // the floats as the file holds them
    for (int i = 0; i < v.size(); i += 2) {
      xs->push_back(float(v[i]));
      ys->push_back(float(v[i + 1]));
      asRead << double(xs->back()) << double(ys->back());
    }
    auto table = std::make_shared<DataTable>();
    table->rows = 600;
    table->columns = 2;
    table->blocks = {{xs->data(), 1, xs}, {ys->data(), 1, ys}};
    QCOMPARE(table->at(5, 1), asRead[11]);
    const QString held = holdTable(table);
    table.reset();
    const ParamMap params{{"file", held}, {"x_columns", "0"}, {"y_columns", "1"}};
    {
      const long owners = xs.use_count();
      const std::unique_ptr<TaskModel> model = buildTask("data", params, 1);
      QVERIFY(model);
      const std::unique_ptr<TaskSampler> sampler = model->sampler(c10::Device(c10::kCPU));
      QVERIFY(xs.use_count() > owners);  // the sampler's rows hold the caller's memory, not a copy of it
      std::fill(xs->begin(), xs->end(), 7.0f);
      at::Generator gen = estimatorGenerator(1);
      const Batch b = sampler->sampleJoint(10, gen);
      QCOMPARE(b.x.min().item<float>(), 7.0f);
      QCOMPARE(b.x.max().item<float>(), 7.0f);
      for (int i = 0; i < v.size(); i += 2) (*xs)[i / 2] = float(v[i]);
    }
    const auto reading = [&](const QString& file) {
      RunSpec s;
      s.task = "data";
      s.taskParams = {{"file", file}, {"x_columns", "0"}, {"y_columns", "1"}};
      s.method = "ksg";
      s.seed = 3;
      s.device = "cpu";
      if (!validateRunSpec(&s, registry_).isEmpty()) return RunResult{};
      Run run(s, registry_.find("ksg"));
      return runToCompletion(run);
    };
    const RunResult fromFile = reading(write(dir_, "blocks.npy", npyOf(asRead))), fromMemory = reading(held);
    QCOMPARE(fromMemory.status, RunStatus::Finished);
    QCOMPARE(fromMemory.estimate, fromFile.estimate);
    QCOMPARE(fromMemory.baseline, fromFile.baseline);
    releaseTable(held);
    QCOMPARE(xs.use_count(), 1L);  // released: nothing of the lab holds the memory any more
  }

  // KSG (all N at once) and InfoNCE (trained on half, read on the other) near the truth, each beside its
  // permutation baseline (y shuffled) near 0.
  void estimatorsReadNearTheTruthBesideTheirBaseline_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<double>("tolerance");
    // KSG at N = 4000 in 1 + 1 dimensions: within a few hundredths (its bias is small here).
    QTest::newRow("ksg") << "ksg" << 0.05;
    // InfoNCE is a lower bound, read on 2000 held-out rows in batches of K = 64: below the truth by a little.
    QTest::newRow("infonce") << "infonce" << 0.15;
  }
  void estimatorsReadNearTheTruthBesideTheirBaseline() {
    QFETCH(QString, method);
    QFETCH(double, tolerance);
    const QString file = write(dir_, "gauss.csv", csvOf(gaussianPairs(4000)));
    RunSpec s;
    s.task = "data";
    s.taskParams = {{"file", file}, {"x_columns", "0"}, {"y_columns", "1"}};
    s.method = method;
    if (method == "infonce") s.methodParams = {{"K", 64}, {"lr", 1e-3}};
    s.steps = 1500;
    s.device = "cpu";
    QVERIFY2(validateRunSpec(&s, registry_).isEmpty(), qPrintable(validateRunSpec(&s, registry_)));
    QCOMPARE(s.samples, 4000);  // every row
    Run run(s, registry_.find(method));
    const RunResult r = runToCompletion(run);
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(r.reason));
    qInfo("%s on the table: %.4f +- %.4f (truth %.4f), y shuffled %.4f +- %.4f", qPrintable(method), r.estimate,
          r.stderror, kTruth, r.baseline, r.baselineStderr);
    QVERIFY(std::isnan(r.trueMi));  // the lab does not know it: the test does
    QVERIFY(std::abs(r.estimate - kTruth) < tolerance);
    QVERIFY(std::abs(r.baseline) < 0.05);
  }

  void badFilesAreRefusedNamingLineAndColumn_data() {
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("columns");  // x;y
    QTest::addColumn<QString>("message");  // after "file: '<path>' " or the key's name
    QTest::newRow("ragged") << QByteArray("1,2\n3,4\n5\n") << "0;1"
                            << "line 3 has 1 cells, line 1 has 2";
    QTest::newRow("text cell") << QByteArray("a,b\n1,2\n3,x7\n") << "0;1"
                               << "line 3, column 2: 'x7' is not a number";
    QTest::newRow("NaN") << QByteArray("1,2\nnan,4\n") << "0;1"
                         << "line 2, column 1: 'nan' is not a finite number";
    QTest::newRow("Inf") << QByteArray("1,inf\n3,4\n") << "0;1"
                         << "line 1, column 2: 'inf' is not a finite number";
    QTest::newRow("no rows") << QByteArray("x,y\n") << "0;1"
                             << "has 0 data rows; at least 2 are needed";
    QTest::newRow("one row") << QByteArray("1,2\n") << "0;1"
                             << "has 1 data row; at least 2 are needed";
    QTest::newRow("column out of range") << QByteArray("1,2\n3,4\n") << "0;2"
                                         << "y_columns: column 2 is out of range";
    QTest::newRow("x and y overlap") << QByteArray("1,2\n3,4\n") << "0,1;1"
                                     << "y_columns: column 1 is also one of the other variable's";
    QTest::newRow("a column twice") << QByteArray("1,2,3\n3,4,5\n") << "0,0;1"
                                    << "x_columns: column 0 is named twice; each column once";
    // Standardised in float32, 1e308 became an infinity and KSG crashed on it.
    QTest::newRow("a cell too large") << QByteArray("x,y\n1,2\n1e308,4\n") << "0;1"
                                      << "line 3, column 1: '1e308' is beyond +-1e30";
    // Past a double's range, yet written as a number: data, not a header (issue 80 lost such a first row).
    QTest::newRow("a first line past a double") << QByteArray("1e400,2\n1,2\n3,4\n") << "0;1"
                                                << "line 1, column 1: '1e400' is beyond +-1e30";
    QTest::newRow("x' narrower than x") << QByteArray("1,2,3,4\n3,4,5,6\n") << "0,1;3;2"
                                        << "xp_columns: x' has as many columns as x (2), got 1";
  }
  void badFilesAreRefusedNamingLineAndColumn() {
    QFETCH(QByteArray, contents);
    QFETCH(QString, columns);
    QFETCH(QString, message);
    RunSpec s;
    s.task = "data";
    s.taskParams = {
        {"file", write(dir_, QString("bad-%1.csv").arg(QTest::currentDataTag()).replace(' ', '-'), contents)},
        {"x_columns", columns.section(';', 0, 0)},
        {"y_columns", columns.section(';', 1, 1)}};
    if (!columns.section(';', 2, 2).isEmpty()) s.taskParams.insert("xp_columns", columns.section(';', 2, 2));
    s.method = "ksg";
    const QString err = validateRunSpec(&s, registry_);
    QVERIFY2(err.contains(message), qPrintable(err));
    QVERIFY(!err.contains('\n'));
  }

  // NumPy files whose header lies: a shape whose byte count passes 2^63 (it wrapped, and validation crashed), a
  // newline inside the header (echoed into a two-line message), an .npz member with a wrong checksum (read as is).
  void lyingNumPyFilesAreRefusedInOneLine() {
    QByteArray huge = npyOf(gaussianPairs(4));
    huge.replace("'shape': (4, 2)", "'shape': (2305843009213693952, 8)");
    QByteArray newline = npyOf(gaussianPairs(4));
    newline.replace("'descr'", "\n'desc'");  // unreadable, and a newline in what the message quotes
    // The recorded CRC-32 changed in the local header (offset 14) and the central directory (offset 16): the data
    // unpack cleanly, and only the checksum says they are not what was stored.
    QFile zipped(writeNpz(dir_, npyOf(gaussianPairs(100))));
    QVERIFY(zipped.open(QIODevice::ReadOnly));
    QByteArray damaged = zipped.readAll();
    zipped.close();
    for (const auto& [signature, offset] : {std::pair{QByteArray("PK\x03\x04"), 14}, {QByteArray("PK\x01\x02"), 16}}) {
      const qsizetype header = damaged.indexOf(signature);
      QVERIFY(header >= 0);
      damaged[header + offset] = char(damaged[header + offset] ^ 0x55);
    }
    DataTable t;
    QVERIFY(readDataTable(write(dir_, "huge.npy", huge), HeaderMode::Auto, &t)
                .endsWith("fewer bytes than its shape needs"));
    const QString err = readDataTable(write(dir_, "newline.npy", newline), HeaderMode::Auto, &t);
    QVERIFY2(err.contains("unreadable header") && !err.contains('\n'), qPrintable(err));
    const QString crc = readDataTable(write(dir_, "damaged.npz", damaged), HeaderMode::Auto, &t);
    QVERIFY2(crc.contains("damaged: its checksum or size is wrong"), qPrintable(crc));
  }

  // Ties: KSG breaks them with noise of 1e-10 (Kraskov et al. 2004), so a constant table reads about 0 and three
  // repeated rows about log 3 (before: 9.68 and 7.08 nats).
  void ksgReadsTiedRowsAsTheirClusters() {
    QByteArray constant, three;
    for (int i = 0; i < 300; ++i) {
      constant += "1,1\n";
      three += QByteArray::number(i % 3) + "," + QByteArray::number(i % 3) + "\n";
    }
    const auto ksgOn = [&](const QString& name, const QByteArray& rows) {
      RunSpec s;
      s.task = "data";
      s.taskParams = {{"file", write(dir_, name, rows)}, {"x_columns", "0"}, {"y_columns", "1"}};
      s.method = "ksg";
      s.device = "cpu";
      if (const QString err = validateRunSpec(&s, registry_); !err.isEmpty()) qFatal("%s", qPrintable(err));
      Run run(s, registry_.find("ksg"));
      return runToCompletion(run);
    };
    const RunResult flat = ksgOn("constant.csv", constant), clusters = ksgOn("three.csv", three);
    QVERIFY2(flat.status == RunStatus::Finished && std::abs(flat.estimate) < 0.15, qPrintable(flat.reason));
    QVERIFY2(clusters.status == RunStatus::Finished && std::abs(clusters.estimate - std::log(3.0)) < 0.1,
             qPrintable(QString::number(clusters.estimate)));
  }

  void aFileOverTheLimitIsNotRead() {
    QFile big(dir_.filePath("big.csv"));
    QVERIFY(big.open(QIODevice::WriteOnly));
    QVERIFY(big.resize(kMaxDataFileBytes + 1));  // sparse: no gigabyte is written
    big.close();
    DataTable t;
    QVERIFY2(readDataTable(big.fileName(), HeaderMode::Auto, &t).endsWith("is 1024 MiB, over the 1024 MiB limit"),
             qPrintable(readDataTable(big.fileName(), HeaderMode::Auto, &t)));
  }

 private:
  MethodRegistry registry_;
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestDataTask)
#include "test_data_task.moc"
