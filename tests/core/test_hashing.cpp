// Fashion-MNIST hashing (issue 4): the IDX reader against the dataset's known shape and class balance, the
// missing-dataset message, top-k precision on hand-built codes (ties broken by database order), and a short
// fixed-seed run in which AMMI's codes retrieve better than random-projection LSH at 16 bits.
#include <ATen/ATen.h>

#include <QTemporaryDir>
#include <QtTest>

#include "data/fashion_mnist.h"
#include "engine/device.h"
#include "hashing/hamming_retrieval.h"
#include "hashing/hashing_experiment.h"
#include "method/method_registry.h"

using namespace milab;

class TestHashing : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  void packsBitIOfRowIntoBitI() {
    const at::Tensor bits = at::tensor({1, 0, 1, 0, 1, 1}, at::kLong).view({2, 3});
    QCOMPARE(packCodes(bits), (std::vector<uint64_t>{0b101, 0b110}));
  }

  void topKPrecisionCountsSameClassNeighbours() {
    // Database: distance 0, 1, 1, 2, 3 from the query 0b0000; labels 1, 1, 2, 2, 1.
    const std::vector<uint64_t> db{0b0000, 0b0001, 0b0010, 0b0011, 0b0111};
    const at::Tensor dbLabels = at::tensor({1, 1, 2, 2, 1}, at::kLong);
    const at::Tensor queryLabel = at::tensor({1}, at::kLong);
    QCOMPARE(topKPrecision({0b0000}, queryLabel, db, dbLabels, 1), 1.0);
    QCOMPARE(topKPrecision({0b0000}, queryLabel, db, dbLabels, 2), 1.0);  // the tie at distance 1: db order
    QCOMPARE(topKPrecision({0b0000}, queryLabel, db, dbLabels, 3), 2.0 / 3);
    QCOMPARE(topKPrecision({0b0000}, queryLabel, db, dbLabels, 4), 0.5);
    // Two queries average: the second (0b0111, label 2) sees 0b0111 (1), 0b0011 (2) first.
    QCOMPARE(topKPrecision({0b0000, 0b0111}, at::tensor({1, 2}, at::kLong), db, dbLabels, 2), (1.0 + 0.5) / 2);
  }

  void missingDatasetSaysHowToInstall() {
    QTemporaryDir empty;
    const QString message = checkFashionMnist(empty.path());
    QVERIFY(message.startsWith("dataset: Fashion-MNIST not found"));
    QVERIFY(message.contains("apt-get install dataset-fashion-mnist"));
    ImageSet set;
    QCOMPARE(loadFashionMnist(empty.path(), "train", 0, &set), message);
  }

  // The README's commands install dataset-fashion-mnist; without it this fails with the install line.
  void readsFashionMnist() {
    ImageSet train, test;
    QString err = loadFashionMnist(fashionMnistDir(), "train", 0, &train);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    err = loadFashionMnist(fashionMnistDir(), "t10k", 0, &test);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QCOMPARE(train.images.sizes().vec(), (std::vector<int64_t>{60000, 784}));
    QCOMPARE(test.images.sizes().vec(), (std::vector<int64_t>{10000, 784}));
    QVERIFY(train.images.min().item<float>() == 0.0f && train.images.max().item<float>() == 1.0f);
    const at::Tensor counts = at::bincount(train.labels);  // ten balanced classes
    QCOMPARE(counts.size(0), int64_t{10});
    QVERIFY((counts == 6000).all().item<bool>());
    QVERIFY((at::bincount(test.labels) == 1000).all().item<bool>());
  }

  // 300 steps on 20000 training images, 1000 queries: AMMI (trained through its plugin's estimator, the encoder
  // its own predictor) above LSH by more than 0.05.
  void ammiRetrievesBetterThanLsh() {
    HashingSpec spec;
    const QString err = hashingSpecFromFlat(
        {{"method", "ammi"}, {"steps", 300}, {"train_limit", 20000}, {"query_limit", 1000}, {"device", "cpu"}}, {16},
        registry_, &spec);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    const std::atomic<bool> cancel{false};
    const HashingResult r = runHashing(spec, registry_, {}, cancel);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.rows.size(), 2);
    const HashingRow &lsh = r.rows[0], &ammi = r.rows[1];
    qInfo("m=16: lsh %.4f (%d codes), ammi %.4f (%d codes, estimate %.2f nats)", lsh.precision, lsh.distinctCodes,
          ammi.precision, ammi.distinctCodes, ammi.estimate.value_or(NAN));
    QCOMPARE(lsh.method, QString("lsh"));
    QCOMPARE(ammi.method, QString("ammi"));
    QVERIFY(!lsh.estimate);        // random projections estimate no MI: no number, not a 0
    QVERIFY(lsh.precision > 0.1);  // above chance: LSH keeps some of the pixels' geometry
    QVERIFY(ammi.precision > lsh.precision + 0.05);
    QVERIFY(ammi.estimate && *ammi.estimate > 0 && *ammi.estimate <= 16 * std::log(2.0) + 1e-6);
  }

  void badSettingsNameTheField() {
    HashingSpec spec;
    const QVariantMap ammi{{"method", "ammi"}};
    auto with = [&](QVariantMap flat) {
      flat.insert("method", "ammi");
      return flat;
    };
    QVERIFY(hashingSpecFromFlat(ammi, {"16", "65"}, registry_, &spec).startsWith("bits: must be integers in [1, 64]"));
    QVERIFY(hashingSpecFromFlat(with({{"top_k", 0}}), {}, registry_, &spec)
                .startsWith("top_k: must be an integer in [1, 60000]"));
    QVERIFY(hashingSpecFromFlat(with({{"colour", 1}}), {}, registry_, &spec).startsWith("colour:"));
    QVERIFY(hashingSpecFromFlat(with({{"order_prior", 5}}), {"4", "16"}, registry_, &spec)
                .startsWith("order_prior: must be <= the shortest code length, bits = 4"));
    // The method is the file's, one that has a Markov encoder and a learned prior: asked of the registry.
    QCOMPARE(hashingSpecFromFlat({}, {}, registry_, &spec), QString("method: required for hashing, one of ammi (the "
                                                                    "codes' encoder)"));
    QCOMPARE(hashingSpecFromFlat({{"method", "infonce"}}, {}, registry_, &spec),
             QString("method: must be one of ammi for hashing (a Markov encoder with a learned prior), got 'infonce'"));
    QVERIFY(hashingSpecFromFlat(with({{"hidden", 0}}), {}, registry_, &spec).startsWith("hidden:"));
  }

 private:
  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestHashing)
#include "test_hashing.moc"
