// Lee and Rhee's class channel (plugins/tasks/class-channel): the truth against brute force over the bits, the
// sampler's bits against the channel (binomial bands) and its items against their classes, the pools' items apart
// (no held-out image or text is a training one), a finite set's held-out rows kept apart wherever it reorders rows,
// KSG and InfoNCE telling the channel from independence on images and on text, and every kind of bad input refused
// naming its key.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "class_channel.h"
#include "class_channel_options.h"
#include "class_channel_sampler.h"
#include "class_pools.h"
#include "data/fashion_mnist.h"
#include "data/fortune_corpus.h"
#include "data/hashed_tfidf.h"
#include "engine/device.h"
#include "engine/run.h"
#include "engine/sample_set.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

// I(b; b') by enumeration of every pair of bit strings: p(b, b') = 2^-S prod over the bits of (1 - p) where they
// agree and p where they differ; both marginals are uniform.
double bruteForceMi(int sources, double p) {
  const int strings = 1 << sources;
  double mi = 0;
  for (int b = 0; b < strings; ++b)
    for (int c = 0; c < strings; ++c) {
      double joint = 1.0 / strings;
      for (int bit = 0; bit < sources; ++bit) joint *= ((b >> bit) & 1) == ((c >> bit) & 1) ? 1 - p : p;
      if (joint > 0) mi += joint * std::log(joint / (1.0 / strings * (1.0 / strings)));
    }
  return mi;
}

// A byte-exact key of each row: two equal rows have equal keys.
QSet<QByteArray> rowKeys(const at::Tensor& items) {
  const at::Tensor rows = items.contiguous();
  QSet<QByteArray> keys;
  for (int64_t i = 0; i < rows.size(0); ++i)
    keys.insert(QByteArray(static_cast<const char*>(rows[i].data_ptr()), qsizetype(rows.size(1) * sizeof(float))));
  return keys;
}

// A law that marks its rows: training rows near -1, held-out rows near +1 in every column (x and y alike), drawn
// apart as the class channel's are. Standardisation keeps the sign; any mixing of the parts shows.
class MarkedLaw final : public TaskSampler {
 public:
  explicit MarkedLaw(bool apart) : TaskSampler(c10::Device(c10::kCPU)), apart_(apart) {}
  int dimX() const override { return 2; }
  int dimY() const override { return 2; }
  Batch sampleJoint(int64_t n, at::Generator& gen) const override { return marked(n, -1.0, gen); }
  Batch sampleTable(int64_t train, int64_t heldOut, at::Generator& gen) const override {
    const Batch a = marked(train, -1.0, gen), b = marked(heldOut, 1.0, gen);
    return {at::cat({a.x, b.x}), at::Tensor(), at::cat({a.y, b.y})};
  }
  bool drawsHeldOutApart() const override { return apart_; }

 private:
  static Batch marked(int64_t n, double sign, at::Generator& gen) {
    const auto noise = [&] { return sign + 0.1 * at::rand({n, 2}, gen, at::kDouble).to(at::kFloat); };
    return {noise(), at::Tensor(), noise()};
  }
  bool apart_;
};

bool allOfSign(const at::Tensor& t, double sign) { return (t * sign > 0).all().item<bool>(); }

}  // namespace

class TestClassChannel : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  void theTruthIsTheBitsMutualInformation() {
    for (int sources : {1, 2, 3, 4})
      for (double p : {0.0, 0.03, 0.2, 0.37, 0.5}) {
        const double truth = bruteForceMi(sources, p);
        QVERIFY2(
            std::abs(classChannelMi(sources, p) - truth) < 1e-12,
            qPrintable(QString("S %1 p %2: %3 vs %4").arg(sources).arg(p).arg(classChannelMi(sources, p)).arg(truth)));
        if (p > 0 && p < 0.5) QVERIFY(std::abs(crossoverFor(sources, truth) - p) < 1e-12);
      }
    QCOMPARE(crossoverFor(3, 3 * std::log(2.0)), 0.0);
    QVERIFY(std::abs(crossoverFor(3, 0.0) - 0.5) < 1e-12);
    QVERIFY(std::abs(binaryEntropy(0.5) - std::log(2.0)) < 1e-15);
  }

  // Bits fair, flips at the crossover (each share within 4.5 standard errors of its binomial: a false alarm about
  // once in 150,000), and each item of its bit's class, its row the pool's item.
  void theSamplerFollowsTheChannel() {
    ClassPools pools;
    QCOMPARE(loadImagePools(fashionMnistDir(), {0, 1}, 7, &pools), QString());
    auto shared = std::make_shared<const ClassPools>(pools);
    const double p = 0.2;
    const int sources = 3;
    const ClassChannelSampler sampler(shared, sources, p, c10::Device(c10::kCPU));
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(7);
    const int64_t n = 20000;
    for (PoolPart part : {PoolPart::Training, PoolPart::HeldOut}) {
      const ClassChannelRows rows = sampler.draw(n, part, gen);
      const double cells = double(n * sources);
      const double ones = rows.xBits.sum().item<double>() / cells;
      const double flips = (rows.xBits != rows.yBits).sum().item<double>() / cells;
      QVERIFY2(std::abs(ones - 0.5) < 4.5 * std::sqrt(0.25 / cells), qPrintable(QString::number(ones)));
      QVERIFY2(std::abs(flips - p) < 4.5 * std::sqrt(p * (1 - p) / cells), qPrintable(QString::number(flips)));
      const int64_t first = pools.sizes[int(part)][0];
      for (const auto& [bits, items] : {std::pair{rows.xBits, rows.xItems}, std::pair{rows.yBits, rows.yItems}})
        QVERIFY(((items >= first) == (bits == 1)).all().item<bool>());
      const at::Tensor firstItems = pools.items[int(part)].index_select(0, rows.yItems.select(1, 2));
      QVERIFY(at::equal(rows.batch.y.narrow(1, 2 * pools.width(), pools.width()), firstItems));
      QCOMPARE(rows.batch.x.size(1), sources * pools.width());
    }
  }

  void noHeldOutItemIsATrainingItem() {
    ClassPools images, texts;
    QCOMPARE(loadImagePools(fashionMnistDir(), {0, 1}, 28, &images), QString());
    QCOMPARE(loadTextPools(fortunesDir(), {"computers", "songs-poems"}, 64, &texts), QString());
    QCOMPARE(images.sizes[0][0] + images.sizes[0][1], 12000);  // 6,000 a class in the training split
    QCOMPARE(images.sizes[1][0] + images.sizes[1][1], 2000);
    QVERIFY(!rowKeys(images.items[0]).intersects(rowKeys(images.items[1])));
    const QSet<QString> trainTexts(texts.texts[0].begin(), texts.texts[0].end());
    for (const QString& text : texts.texts[1]) QVERIFY2(!trainTexts.contains(text), qPrintable(text));
    QCOMPARE(texts.items[1].size(0), texts.texts[1].size());
    QVERIFY(texts.sizes[1][0] > 150 && texts.sizes[1][1] > 100);
  }

  // Whole, with y permuted, and in the size extrapolation's parts: training rows only from the training draw,
  // held-out rows only from the held-out draw. A law that does not draw apart keeps the old order (its parts mix).
  void aFiniteSetKeepsHeldOutRowsApart() {
    const MarkedLaw apart(true), mixed(false);
    for (bool permute : {false, true})
      for (RowPart part : {RowPart{}, RowPart{2, 1}, RowPart{5, 3}}) {
        const SampleSet set(apart, 1000, 0.3, 4, permute, ColumnTransform::None, false, part);
        QVERIFY(allOfSign(set.training().x, -1) && allOfSign(set.training().y, -1));
        QVERIFY(allOfSign(set.heldOut().x, 1) && allOfSign(set.heldOut().y, 1));
        QCOMPARE(set.heldOutRows(), int64_t(300 / part.of));
      }
    const SampleSet mixedParts(mixed, 1000, 0.3, 4, true, ColumnTransform::None, false, RowPart{2, 1});
    QVERIFY(!allOfSign(mixedParts.heldOut().x, 1));
  }

  void hashedTfidfMatchesItsTranscription() {
    const QStringList corpus{"the cat sat", "the dog ran far", "a cat and a dog"};
    const HashedTfidf tfidf(corpus, 16);
    const at::Tensor rows = tfidf.transform({"cat cat dog", "x"}).to(at::kDouble);
    // By hand: counts signed per column, times the smooth idf, L2-normalised.
    QVector<double> expected(16, 0.0);
    for (const QString& w : {"cat", "cat", "dog"}) {
      int column = 0;
      double sign = 0;
      HashedTfidf::bucketOf(w, 16, &column, &sign);
      expected[column] += sign;
    }
    double norm = 0;
    for (int c = 0; c < 16; ++c) {
      int df = 0;
      for (const QString& text : corpus) {
        bool has = false;
        for (const QString& w : HashedTfidf::wordsOf(text)) {
          int column = 0;
          double sign = 0;
          HashedTfidf::bucketOf(w, 16, &column, &sign);
          has = has || column == c;
        }
        df += has;
      }
      expected[c] *= std::log(4.0 / (1.0 + df)) + 1.0;
      norm += expected[c] * expected[c];
    }
    for (int c = 0; c < 16; ++c) QVERIFY(std::abs(rows[0][c].item<double>() - expected[c] / std::sqrt(norm)) < 1e-6);
    QCOMPARE(rows[1].abs().sum().item<double>(), 0.0);  // "x" is no word: one letter
    QCOMPARE(HashedTfidf::wordsOf("Don't PANIC, 42x!"), (QStringList{"don", "panic"}));
  }

  // KSG on 2,000 rows of one image or text a side, and InfoNCE trained on fresh batches: at crossover 0 each reads
  // at least 40% of the channel's log 2 (Lee and Rhee's estimators read below the truth, too) and no more than it
  // plus its noise; at crossover 0.5 (independent classes) within 0.06 nats of 0. KSG is not asked to read the text
  // channel: a text's nearest neighbours in hashed TF-IDF are seldom of its topic, and it reads 0.00 to 0.05 of
  // 0.69 nats at 8 to 64 features (docs/tasks.md, "The class channel").
  void ksgAndInfoNceTellTheChannelFromIndependence() {
    const QString images = "class-channel-images", text = "class-channel-text";
    for (const auto& [task, method] :
         {std::pair{images, QStringLiteral("ksg")}, std::pair{images, QStringLiteral("infonce")},
          std::pair{text, QStringLiteral("ksg")}, std::pair{text, QStringLiteral("infonce")}}) {
      const double dependent = reading(task, method, 0.0), independent = reading(task, method, 0.5);
      const QString what = QString("%1 %2: %3 and %4").arg(task, method).arg(dependent).arg(independent);
      if (task == images || method == "infonce")
        QVERIFY2(dependent > 0.4 * std::log(2.0) && dependent < std::log(2.0) + 0.05, qPrintable(what));
      QVERIFY2(std::abs(independent) < 0.06, qPrintable(what));
    }
  }

  void badInputIsRefusedNamingItsKey() {
    const auto error = [](const QString& task, ParamMap params) {
      return validateTaskParams(*findTask(task), &params);
    };
    const QString images = "class-channel-images", text = "class-channel-text";
    QVERIFY(error(images, {{"sources", 0}}).startsWith("sources: must be an integer in [1, 32]"));
    QVERIFY(error(images, {{"sources", 33}}).startsWith("sources: must be an integer in [1, 32]"));
    QVERIFY(error(images, {{"crossover", 0.6}}).startsWith("crossover: must be a number in [0, 0.5]"));
    QVERIFY(error(images, {{"crossover", -0.1}}).startsWith("crossover: "));
    QVERIFY(error(images, {{"sources", 2}, {"mi", 1.5}}).startsWith("mi: must be in (0, 1.38629] nats"));
    QVERIFY(error(images, {{"mi", 1}, {"crossover", 0.1}}).startsWith("crossover: give crossover or mi, not both"));
    QVERIFY(error(images, {{"mi_schedule", "1,2"}, {"crossover", 0.1}}).startsWith("crossover: an MI staircase"));
    QVERIFY(error(images, {{"sources", 2}, {"mi_schedule", "1,2"}}).startsWith("mi_schedule: must be in"));
    QVERIFY(error(images, {{"classes", "0,10"}}).startsWith("classes: '10' is not a Fashion-MNIST label"));
    QVERIFY(error(images, {{"classes", "trouser"}}).startsWith("classes: must name two, comma-separated"));
    QVERIFY(error(images, {{"classes", "1,Trouser"}}).startsWith("classes: the two must differ"));
    QVERIFY(error(text, {{"classes", "0,1"}}).startsWith("classes: not a parameter"));
    QCOMPARE(error(images, {{"classes", "Trouser,bag"}}), QString());
    QVERIFY(error(text, {{"topics", "computers,nope"}}).startsWith("topics: 'nope' is not a topic"));
    QVERIFY(error(text, {{"features", 4}}).startsWith("features: must be an integer in [8, 4096]"));
    QTemporaryDir empty;
    qputenv("MILAB_FORTUNES", empty.path().toUtf8());
    const QString missing = error(text, {});
    qunsetenv("MILAB_FORTUNES");
    QVERIFY2(
        missing.startsWith("corpus: the fortunes corpus was not found") && missing.contains("apt-get install fortunes"),
        qPrintable(missing));
  }

 private:
  double reading(const QString& task, const QString& method, double crossover) {
    RunSpec s;
    s.task = task;
    s.taskParams = {{"sources", 1}, {"crossover", crossover}};
    if (task.endsWith("images")) s.taskParams.insert("side", "7");
    s.method = method;
    s.seed = 1;
    s.device = "cpu";
    if (method == "ksg")
      s.samples = 2000;
    else
      s.steps = 1000;
    const QString err = validateRunSpec(&s, registry_);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    Run run(s, registry_.find(method));
    const RunResult r = runToCompletion(run);
    if (r.status != RunStatus::Finished) qFatal("%s %s did not finish", qPrintable(task), qPrintable(method));
    return r.estimate;
  }

  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestClassChannel)
#include "test_class_channel.moc"
