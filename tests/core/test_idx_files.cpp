// Fashion-MNIST's gzipped IDX files, every corrupt kind issue 80's probe found (a cut gzip stream, not gzip, the
// wrong IDX magic, labels that do not match their images, 1 x 1 images, sizes whose product overflows or claims
// gigabytes, no images, a label past the classes): refused when the task is validated, in one line naming the file,
// by the runner's --check (exit 2) and before a run writes anything. Synthetic files of a few images, written here.
#include <zlib.h>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

#include "data/fashion_mnist.h"
#include "data/idx_file.h"
#include "engine/device.h"
#include "fuzz/idx_input.h"
#include "time_limits.h"

using namespace milab;

namespace {

constexpr int kImages = 5, kSide = 28;

QByteArray gzipOf(const QByteArray& raw) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);  // 16: the gzip wrapper
  QByteArray out(int(deflateBound(&z, uLong(raw.size()))), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.constData()));
  z.avail_in = uInt(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  deflate(&z, Z_FINISH);
  out.resize(qsizetype(z.total_out));
  deflateEnd(&z);
  return out;
}

// An IDX file of unsigned bytes: the magic 0x00 0x00 0x08 dims, each size big-endian, then `values`.
QByteArray idxOf(const QList<quint32>& shape, const QByteArray& values, char type = 0x08) {
  QByteArray b;
  b.append('\0').append('\0').append(type).append(char(shape.size()));
  for (quint32 s : shape) b.append(char(s >> 24)).append(char(s >> 16)).append(char(s >> 8)).append(char(s));
  return b + values;
}

// Pixels that gzip cannot shrink much (a multiplicative hash of the index), so that a file cut at 1,000 bytes is cut.
QByteArray pixels(int images) {
  QByteArray v;
  for (quint32 i = 0; i < quint32(images * kSide * kSide); ++i) v.append(char((i * 2654435761u) >> 24));
  return v;
}

QByteArray labels(int images) {
  QByteArray v;
  for (int i = 0; i < images; ++i) v.append(char(i % 10));
  return v;
}

void write(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(bytes);
}

// The four files of a sound data set of kImages per split.
void writeSound(const QDir& dir) {
  for (const char* split : {"train", "t10k"}) {
    write(dir.filePath(QStringLiteral("%1-images-idx3-ubyte.gz").arg(split)),
          gzipOf(idxOf({kImages, kSide, kSide}, pixels(kImages))));
    write(dir.filePath(QStringLiteral("%1-labels-idx1-ubyte.gz").arg(split)),
          gzipOf(idxOf({kImages}, labels(kImages))));
  }
}

}  // namespace

class TestIdxFiles : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { initTorchRuntime(); }

  void aSoundDataSetReadsBack() {
    QTemporaryDir tmp;
    writeSound(QDir(tmp.path()));
    QCOMPARE(checkFashionMnist(tmp.path()), QString());
    ImageSet set;
    QCOMPARE(loadFashionMnist(tmp.path(), "train", 0, &set), QString());
    QCOMPARE(set.images.size(0), kImages);
    QCOMPARE(set.images.size(1), kSide * kSide);
    QCOMPARE(set.images[0][1].item<float>(), float(2654435761u >> 24) / 255.0f);  // the first image's second pixel
    QCOMPARE(set.labels[3].item<int64_t>(), 3);
  }

  void everyCorruptKindIsOneLineNamingTheFile_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("says");
    const QString images = "train-images-idx3-ubyte.gz", labelsFile = "train-labels-idx1-ubyte.gz";
    const QByteArray sound = gzipOf(idxOf({kImages, kSide, kSide}, pixels(kImages)));
    QTest::newRow("gzip cut short") << images << sound.left(1000) << "is cut short (its gzip stream ends early)";
    QTest::newRow("not gzip") << images << idxOf({kImages, kSide, kSide}, pixels(kImages)) << "is not gzip data";
    QByteArray flipped = sound;
    flipped[sound.size() / 2] = char(flipped[sound.size() / 2] ^ 0x55);
    QTest::newRow("corrupt gzip") << images << flipped << "is corrupt gzip data";
    QTest::newRow("not IDX") << images << gzipOf("hello, world") << "is not an IDX file";
    QTest::newRow("IDX of floats") << images << gzipOf(idxOf({kImages, kSide, kSide}, pixels(kImages), 0x0d))
                                   << "holds IDX values of type 0x0d, not unsigned bytes";
    QTest::newRow("labels for images") << images << gzipOf(idxOf({kImages}, labels(kImages)))
                                       << "says 1 dimensions, not 3";
    QTest::newRow("labels short of images")
        << labelsFile << gzipOf(idxOf({kImages - 1}, labels(kImages - 1))) << "holds 4 labels for the 5 images of";
    QTest::newRow("1 x 1 images") << images << gzipOf(idxOf({kImages, 1, 1}, pixels(kImages).left(kImages)))
                                  << "holds 1 x 1 images; Fashion-MNIST's are 28 x 28";
    QTest::newRow("sizes overflow") << images << gzipOf(idxOf({0xffffffffu, 0xffffffffu, 0xffffffffu}, {}))
                                    << "claims more values than it can hold";
    QTest::newRow("claims 5 GB") << images << gzipOf(idxOf({6400000, kSide, kSide}, pixels(kImages)))
                                 << "claims more values than it can hold";
    QTest::newRow("values short of sizes") << images << gzipOf(idxOf({kImages, kSide, kSide}, pixels(kImages - 1)))
                                           << "holds 3136 bytes of values where its sizes promise 3920";
    QTest::newRow("no images") << images << gzipOf(idxOf({0, kSide, kSide}, {})) << "holds no images";
    QByteArray bad = labels(kImages);
    bad[2] = char(255);
    QTest::newRow("label 255") << labelsFile << gzipOf(idxOf({kImages}, bad))
                               << "label 255 (item 2) is not one of the 10 classes (0 to 9)";
    QTest::newRow("empty file") << labelsFile << QByteArray() << "is not gzip data";
  }
  void everyCorruptKindIsOneLineNamingTheFile() {
    QFETCH(QString, file);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, says);
    QTemporaryDir tmp;
    const QDir dir(tmp.path());
    writeSound(dir);
    write(dir.filePath(file), bytes);
    const QString err = checkFashionMnist(tmp.path());
    const QString named = QStringLiteral("dataset: '%1' ").arg(dir.filePath(file));
    QVERIFY2(err.startsWith(named) && err.contains(says) && !err.contains('\n'), qPrintable(err));
    ImageSet set;
    QCOMPARE(loadFashionMnist(tmp.path(), "train", 0, &set), err);

    // The runner: --check refuses it (exit 2, that one line), and a run refuses it before it writes anything.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("MILAB_FASHION_MNIST", tmp.path());
    // Every kind through --check; one kind through a whole run (each start of the runner costs about a second).
    for (const bool check : {true, false}) {
      if (!check && QTest::currentDataTag() != QLatin1String("label 255")) continue;
      QProcess p;
      p.setProcessEnvironment(env);
      QStringList args{"run", "--task", "fashion-mnist-views", "--method", "demi-vision", "--steps",
                       "2",   "--out",  dir.filePath("never")};
      if (check) args << "--check";
      p.start(MILAB_CLI_PATH, args);
      QVERIFY(p.waitForFinished(untilDoneMs()));
      const QString stderrText = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
      QCOMPARE(p.exitCode(), 2);
      QCOMPARE(stderrText, "milab-cli: " + err);
      QVERIFY(!QFileInfo::exists(dir.filePath("never")));
    }
  }

  // The IDX corpus (tests/fuzz/idx-corpus, tests/fuzz/make_idx_corpus.py; fuzz_idx starts from it and adds what it
  // once failed on): each file read as its contract says, the sound ones read, the broken ones refused.
  void theCorpusKeepsTheContract() {
    const QDir corpus(QStringLiteral(MILAB_SOURCE_DIR "/tests/fuzz/idx-corpus"));
    int sound = 0, refused = 0;
    for (const QFileInfo& f : corpus.entryInfoList(QDir::Files, QDir::Name)) {
      QFile file(f.absoluteFilePath());
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QByteArray bytes = file.readAll();
      const int dims = f.fileName().contains(".idx3.") ? 3 : 1;
      QVERIFY2(checkIdxBytes(bytes, dims).isEmpty(), qPrintable(f.fileName() + ": " + checkIdxBytes(bytes, dims)));
      IdxArray out;
      (parseIdxGz(bytes, dims, &out).isEmpty() ? sound : refused) += 1;
      if (f.fileName().startsWith("sound-")) QCOMPARE(parseIdxGz(bytes, dims, &out), QString());
    }
    QVERIFY(sound >= 2);
    QVERIFY(refused >= 12);
  }

  // The reader alone on what a fuzzer hands it: whatever the bytes, a verdict and no crash.
  void theReaderTakesAnyBytes() {
    IdxArray out;
    QVERIFY(!parseIdxGz(QByteArray(1, '\x1f'), 1, &out).isEmpty());
    QVERIFY(!parseIdxGz(gzipOf(QByteArray(3, '\0')), 1, &out).isEmpty());
    QVERIFY(!parseIdxGz(gzipOf(idxOf({2}, "ab")).left(11), 1, &out).isEmpty());
    QCOMPARE(parseIdxGz(gzipOf(idxOf({2}, "ab")), 1, &out), QString());
    QCOMPARE(out.shape, std::vector<int64_t>{2});
  }
};

QTEST_GUILESS_MAIN(TestIdxFiles)
#include "test_idx_files.moc"
