// The separable critic's written-out step (SeparableCritic::writeGradients / trainOnScores) against autograd's
// backward through the same networks, for every kind of score-matrix bound the comparators train: InfoNCE's closed
// form and, through scoresBackwardByAutograd, NWJ, TUBA, DV, MINE's corrected gradient, JS, SMILE's JS-trained DV
// and local NCE's binary NCE. In double (the ATen calls autograd makes: to the bit, or nearly) and in float on
// contiguous CPU tensors (SeparableCpuPass, oneDNN's GEMMs: to float rounding).
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/DefaultDtype.h>

#include <QtTest>
#include <cmath>
#include <functional>
#include <limits>

#include "engine/device.h"
#include "nn/bias_sums.h"
#include "nn/exp_underflow.h"
#include "nn/separable_critic.h"
#include "nn/softmax_rows.h"
#include "score_matrix_bounds.h"

using namespace milab;

namespace {

// The critics are built in `dtype` (torch's modules take the default dtype), then it is set back.
struct DefaultDtype {
  explicit DefaultDtype(at::ScalarType t) : saved(c10::get_default_dtype()) {
    c10::set_default_dtype(c10::scalarTypeToTypeMeta(t));
  }
  ~DefaultDtype() { c10::set_default_dtype(saved); }
  caffe2::TypeMeta saved;
};

}  // namespace

class TestSeparableStep : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { initTorchRuntime(1); }

  void gradientsAreAutogradsForEveryBound_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("inDouble");
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("hidden");
    QTest::addColumn<int>("embed");
    for (const QString& b : kBounds) {
      QTest::newRow(qPrintable(b + ", double, K 37")) << b << true << 37 << 13 << 5;
      QTest::newRow(qPrintable(b + ", float, K 37")) << b << false << 37 << 13 << 5;
      QTest::newRow(qPrintable(b + ", float, K 128, the default critic")) << b << false << 128 << 100 << 100;
    }
  }
  void gradientsAreAutogradsForEveryBound() {
    QFETCH(QString, name);
    QFETCH(bool, inDouble);
    QFETCH(int, K);
    QFETCH(int, hidden);
    QFETCH(int, embed);
    const at::ScalarType dtype = inDouble ? at::kDouble : at::kFloat;
    const DefaultDtype scope(dtype);
    at::Generator a = at::make_generator<at::CPUGeneratorImpl>(3), b = at::make_generator<at::CPUGeneratorImpl>(3);
    SeparableCritic autograd(6, 4, hidden, embed, 5e-3, c10::kCPU, a), written(6, 4, hidden, embed, 5e-3, c10::kCPU, b);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(8);
    const at::Tensor x = at::randn({K, 6}, data).to(dtype);
    const at::Tensor y = (x.narrow(1, 0, 4) + 0.5 * at::randn({K, 4}, data).to(dtype)).contiguous();
    // The float case must be the written-out CPU pass, the double case the ATen calls; the pass's buffers are a
    // square score matrix, so rows of x without as many of y take the ATen calls too.
    QCOMPARE(SeparableCpuPass::takes(written.xNetwork(), written.yNetwork(), x, y), !inDouble);
    QVERIFY(!SeparableCpuPass::takes(written.xNetwork(), written.yNetwork(), x, y.narrow(0, 1, K - 1).contiguous()));

    const Bound objective = bound(name);
    for (const at::Tensor& p : autograd.parameters()) p.mutable_grad().zero_();
    const at::Tensor expected = objective(autograd.scores(x, y));
    expected.neg().backward();
    for (const at::Tensor& p : written.parameters()) p.mutable_grad().fill_(1e3);  // overwritten, not added to
    const at::Tensor value = written.writeGradients(x, y, [&](const at::Tensor& s) {
      return name == "infonce" ? written.inBatchNceBackward(s) : scoresBackwardByAutograd(objective, s);
    });

    const double tolerance = inDouble ? 1e-12 : 2e-5;
    QVERIFY2(
        std::abs(value.item<double>() - expected.item<double>()) <= tolerance * (1 + std::abs(expected.item<double>())),
        qPrintable(QString("value %1, autograd %2").arg(value.item<double>()).arg(expected.item<double>())));
    // Errors against the largest gradient of all: some are zero up to rounding (InfoNCE's is blind to g's output
    // bias, which shifts a row's scores by one constant).
    double scale = 0;
    for (const at::Tensor& p : autograd.parameters()) scale = std::max(scale, p.grad().abs().max().item<double>());
    QVERIFY2(scale > 0, "no gradient tests nothing");
    for (size_t i = 0; i < autograd.parameters().size(); ++i) {
      const at::Tensor ours = written.parameters()[i].grad(), theirs = autograd.parameters()[i].grad();
      const double error = (ours - theirs).abs().max().item<double>();
      QVERIFY2(error <= tolerance * scale,
               qPrintable(QString("parameter %1: max error %2 of max |grad| %3").arg(i).arg(error).arg(scale)));
    }
  }

  // A NaN or an infinity among the scores leaves InfoNCE's objective finite exactly where the log-softmax in double
  // is (a score of -inf off the diagonal is only a negative that never wins), so a diverged critic stops its run.
  void nonFiniteScoresAsTheLogSoftmaxReadsThem() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(5);
    SeparableCritic critic(3, 3, 4, 4, 1e-3, c10::kCPU, gen);
    const double inf = std::numeric_limits<double>::infinity();
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), inf, -inf}) {
      for (int column : {0, 5}) {
        at::Tensor scores = at::randn({8, 8}, gen);
        scores[0][column] = bad;
        const double ours = critic.inBatchNceBackward(scores).objective.item<double>();
        const double reference = inBatchNce(scores.to(at::kDouble)).item<double>();
        const QByteArray where =
            QString("score %1 in column %2: %3 against %4").arg(bad).arg(column).arg(ours).arg(reference).toUtf8();
        QCOMPARE(std::isfinite(ours), std::isfinite(reference));
        if (std::isfinite(reference)) QVERIFY2(std::abs(ours - reference) < 1e-5, where.constData());
      }
    }
  }

  // In double, the written-out step is autograd's to the bit, Adam included: 20 steps of InfoNCE and NWJ keep the
  // two critics' parameters equal.
  void doubleStepsAreAutogradsToTheBit() {
    const DefaultDtype scope(at::kDouble);
    for (const QString& name : {QString("infonce"), QString("nwj")}) {
      at::Generator a = at::make_generator<at::CPUGeneratorImpl>(3), b = at::make_generator<at::CPUGeneratorImpl>(3);
      SeparableCritic autograd(6, 4, 13, 5, 5e-3, c10::kCPU, a), written(6, 4, 13, 5, 5e-3, c10::kCPU, b);
      at::Generator data = at::make_generator<at::CPUGeneratorImpl>(8);
      const Bound objective = bound(name);
      for (int step = 0; step < 20; ++step) {
        const at::Tensor x = at::randn({16, 6}, data, at::kDouble);
        const at::Tensor y = (x.narrow(1, 0, 4) + 0.5 * at::randn({16, 4}, data, at::kDouble)).contiguous();
        autograd.minimise(-objective(autograd.scores(x, y)));
        if (name == "infonce")
          written.trainInBatchNce(x, y);
        else
          written.trainOnScores(x, y, [&](const at::Tensor& s) { return scoresBackwardByAutograd(objective, s); });
      }
      for (size_t i = 0; i < autograd.parameters().size(); ++i)
        QVERIFY2(at::equal(written.parameters()[i], autograd.parameters()[i]), qPrintable(name));
    }
  }

  // The pass keeps its embeddings transposed and sums their gradient's columns there: both layouts' sums against
  // the sums in double, on shapes with and without whole vector blocks, within the bound any order of n float
  // additions keeps, gamma_(n-1) times the sum of |terms| (Higham, Accuracy and Stability, eq. 4.4).
  void columnSumsAreTheSumsInDouble() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(11);
    for (int64_t rows : {1, 7, 8, 9, 100, 128, 131}) {
      for (int64_t cols : {1, 5, 8, 16, 100, 103}) {
        const at::Tensor m = at::randn({rows, cols}, gen) * 100;
        const at::Tensor t = m.t().contiguous();
        std::vector<float> plain(cols), transposed(cols);
        columnSums(m.data_ptr<float>(), rows, cols, plain.data());
        columnSumsOfTransposed(t.data_ptr<float>(), rows, cols, transposed.data());
        const at::Tensor exact = m.to(at::kDouble).sum(0), magnitude = m.to(at::kDouble).abs().sum(0);
        const double gamma = double(rows - 1) * 0x1p-24 / (1 - double(rows - 1) * 0x1p-24);
        for (int64_t j = 0; j < cols; ++j) {
          const double e = exact[j].item<double>(), bound = gamma * magnitude[j].item<double>();
          QVERIFY2(std::abs(plain[j] - e) <= bound && std::abs(transposed[j] - e) <= bound,
                   qPrintable(QString("rows %1, cols %2, column %3: %4 and %5 against %6")
                                  .arg(rows)
                                  .arg(cols)
                                  .arg(j)
                                  .arg(plain[j])
                                  .arg(transposed[j])
                                  .arg(e)));
        }
      }
    }
  }

  // A softmax row's log-sum-exp against the same in double, on rows with and without whole vector blocks and terms
  // of mixed size: its exponentials' sum is in vector lanes (nn/softmax_rows), any order within rounding.
  void logSumExpIsTheDoublesToRounding() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(12);
    for (int64_t k : {1, 8, 13, 128, 131}) {
      const at::Tensor s = at::randn({k}, gen) * 4;
      std::vector<float> scratch(k);
      const double ours = logSumExp(s.data_ptr<float>(), k, scratch.data());
      const double reference = at::logsumexp(s.to(at::kDouble), 0).item<double>();
      QVERIFY2(std::abs(ours - reference) < 1e-6 * (1 + std::abs(reference)),
               qPrintable(QString("k %1: %2 against %3").arg(k).arg(ours).arg(reference)));
    }
  }

  // Where a score sits more than 87.34 below its row's best (a critic sure of its positives), its share of the
  // softmax is below FLT_MIN: 0 on a training thread, which flushes denormals (configureThisThread). The rows never
  // ask expf for it (nn/exp_underflow) and its share is that 0; the objective is the double log-softmax's.
  void scoresFarBelowTheirRowsBestGetNoShare() {
    configureThisThread();
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(13);
    at::Tensor scores = at::randn({16, 16}, gen);
    scores.diagonal().add_(100);  // every off-diagonal score about 100 below its row's best
    scores[3][7] = scores[3][3].item<float>() + kExpUnderflows + 5;     // above the threshold: a share
    scores[5][1] = scores[5][5].item<float>() + kExpUnderflows - 0.01;  // just below it: none
    SeparableCritic critic(3, 3, 4, 4, 1e-3, c10::kCPU, gen);
    const ScoresBackward b = critic.inBatchNceBackward(scores);
    const at::Tensor grad = b.gradScores;
    QVERIFY(grad[3][7].item<float>() > 0);
    QCOMPARE(grad[5][1].item<float>(), 0.f);
    QCOMPARE(grad[0][1].item<float>(), 0.f);
    const double reference = inBatchNce(scores.to(at::kDouble)).item<double>();
    QVERIFY2(std::abs(b.objective.item<double>() - reference) < 1e-5, qPrintable(QString::number(reference)));
  }
};

QTEST_GUILESS_MAIN(TestSeparableStep)
#include "test_separable_step.moc"
