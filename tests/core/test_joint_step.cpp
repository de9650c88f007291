// The joint critic's written-out pass (JointCpuPass through JointCritic::writeGradients, trainOnScores and scores)
// against autograd through the ATen form of the same critic (the split first layer broadcast over the pairs), for
// every kind of score-matrix bound the comparators train, at depths 1 to 3 and at batches of one and two chunks of
// pairs. The ATen form itself is checked against the concatenation [x_i, y_j] by test_joint_critic.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <QtTest>
#include <cmath>
#include <limits>

#include "engine/device.h"
#include "nn/joint_critic.h"
#include "score_matrix_bounds.h"

using namespace milab;

namespace {

QList<int> widths(const QString& layers) {
  QList<int> out;
  for (const QString& w : layers.split(',')) out << w.toInt();
  return out;
}

struct Pairs {
  at::Tensor x, y;
};

Pairs pairs(int64_t rows, at::Generator& gen) {
  const at::Tensor x = at::randn({rows, 6}, gen);
  return {x, (x.narrow(1, 0, 4) + 0.5 * at::randn({rows, 4}, gen)).contiguous()};
}

// The largest difference between two critics' gradients, against the largest gradient of all.
void compareGradients(JointCritic& ours, JointCritic& reference, double tolerance, const QString& where) {
  double scale = 0;
  for (const at::Tensor& p : reference.parameters()) scale = std::max(scale, p.grad().abs().max().item<double>());
  QVERIFY2(scale > 0, "no gradient tests nothing");
  for (size_t i = 0; i < reference.parameters().size(); ++i) {
    const double error = (ours.parameters()[i].grad() - reference.parameters()[i].grad()).abs().max().item<double>();
    QVERIFY2(
        error <= tolerance * scale,
        qPrintable(QString("%1, parameter %2: max error %3 of max |grad| %4").arg(where).arg(i).arg(error).arg(scale)));
  }
}

ScoresObjective byAutograd(const Bound& objective) {
  return [objective](const at::Tensor& s) { return scoresBackwardByAutograd(objective, s); };
}

}  // namespace

class TestJointStep : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { initTorchRuntime(1); }

  void gradientsAreAutogradsForEveryBound_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("layers");
    QTest::addColumn<int>("K");
    for (const QString& b : kBounds) {
      QTest::newRow(qPrintable(b + ", bmi's 16,8, K 256")) << b << "16,8" << 256;
      QTest::newRow(qPrintable(b + ", 7,6,3, K 37")) << b << "7,6,3" << 37;
      QTest::newRow(qPrintable(b + ", 5, K 300 (two chunks of pairs)")) << b << "5" << 300;
    }
  }
  void gradientsAreAutogradsForEveryBound() {
    QFETCH(QString, name);
    QFETCH(QString, layers);
    QFETCH(int, K);
    at::Generator a = at::make_generator<at::CPUGeneratorImpl>(3), b = at::make_generator<at::CPUGeneratorImpl>(3),
                  c = at::make_generator<at::CPUGeneratorImpl>(3);
    JointCritic reference(6, 4, widths(layers), 1e-3, c10::kCPU, a), written(6, 4, widths(layers), 1e-3, c10::kCPU, b),
        fallback(6, 4, widths(layers), 1e-3, c10::kCPU, c);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(8);
    const Pairs batch = pairs(K, data);
    // A non-contiguous x takes the autograd route (what a GPU or double takes), a contiguous one the pass.
    const at::Tensor strided = batch.x.t().contiguous().t();
    QVERIFY(JointCpuPass::takes(written.parameters(), batch.x, batch.y));
    QVERIFY(!JointCpuPass::takes(written.parameters(), strided, batch.y));

    const Bound objective = bound(name);
    for (const at::Tensor& p : reference.parameters()) p.mutable_grad().zero_();
    const at::Tensor expected = objective(reference.scores(batch.x, batch.y));
    expected.neg().backward();
    for (JointCritic* critic : {&written, &fallback})
      for (const at::Tensor& p : critic->parameters()) p.mutable_grad().fill_(1e3);  // overwritten, not added to
    const at::Tensor value = written.writeGradients(batch.x, batch.y, byAutograd(objective));
    const at::Tensor viaAutograd = fallback.writeGradients(strided, batch.y, byAutograd(objective));

    const double tolerance = 2e-5;
    for (const at::Tensor& v : {value, viaAutograd})
      QVERIFY2(
          std::abs(v.item<double>() - expected.item<double>()) <= tolerance * (1 + std::abs(expected.item<double>())),
          qPrintable(QString("value %1, autograd %2").arg(v.item<double>()).arg(expected.item<double>())));
    compareGradients(written, reference, tolerance, "the pass");
    compareGradients(fallback, reference, tolerance, "the autograd route");
  }

  // Evaluation's scores (no graph: the pass, rows in parallel) against the ATen form, on a rectangle of pairs wider
  // than one chunk, rows not a multiple of anything.
  void heldOutScoresAreTheAtenForms() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(4);
    JointCritic critic(6, 4, {16, 8}, 1e-3, c10::kCPU, gen);
    const Pairs rows = pairs(517, gen);
    const at::Tensor xs = rows.x.narrow(0, 0, 301).contiguous();
    at::Tensor ours, theirs;
    {
      c10::NoGradGuard noGraph;
      ours = critic.scores(xs, rows.y);
    }
    theirs = critic.scores(xs, rows.y).detach();  // with a graph: the ATen form
    QCOMPARE(ours.sizes(), theirs.sizes());
    const double error = (ours - theirs).abs().max().item<double>();
    QVERIFY2(error <= 1e-5 * (1 + theirs.abs().max().item<double>()), qPrintable(QString::number(error)));
  }

  // InfoNCE's held-out reading row by row (JointCritic::inBatchNce: never the whole matrix) against the bound on
  // the ATen form's whole score matrix, over three chunks of pairs.
  void heldOutInfoNceRowByRowIsTheBoundOnTheMatrix() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(5);
    JointCritic critic(6, 4, {16, 8}, 1e-3, c10::kCPU, gen);
    const Pairs rows = pairs(601, gen);
    const double ours = critic.inBatchNce(rows.x, rows.y).item<double>();
    const double theirs = inBatchNce(critic.scores(rows.x, rows.y).to(at::kDouble)).item<double>();  // with a graph
    QVERIFY2(std::abs(ours - theirs) < 1e-5, qPrintable(QString("%1 against %2").arg(ours).arg(theirs)));
  }

  // A NaN in the critic (a diverged run) reads NaN in every score it reaches, as ATen's ReLU keeps it, so the run
  // stops with its reason instead of reading a finite number.
  void aNanInTheCriticReachesTheScores() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(6);
    JointCritic critic(6, 4, {16, 8}, 1e-3, c10::kCPU, gen);
    {
      c10::NoGradGuard noGraph;
      critic.parameters()[2][0] = std::numeric_limits<float>::quiet_NaN();  // the first layer's first bias
    }
    const Pairs rows = pairs(40, gen);
    c10::NoGradGuard noGraph;
    QVERIFY(critic.scores(rows.x, rows.y).isnan().all().item<bool>());
    QVERIFY(std::isnan(critic.inBatchNce(rows.x, rows.y).item<double>()));
  }

  // Twenty Adam steps of NWJ through the pass stay with twenty through autograd (float rounding apart). Not InfoNCE:
  // it is blind to the output bias, whose gradient is rounding noise that Adam's normalisation turns into full steps.
  void stepsFollowAutograd() {
    at::Generator a = at::make_generator<at::CPUGeneratorImpl>(3), b = at::make_generator<at::CPUGeneratorImpl>(3);
    JointCritic reference(6, 4, {16, 8}, 1e-2, c10::kCPU, a), written(6, 4, {16, 8}, 1e-2, c10::kCPU, b);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(8);
    for (int step = 0; step < 20; ++step) {
      const Pairs batch = pairs(64, data);
      reference.minimise(-nwjBound(reference.scores(batch.x, batch.y)));
      written.trainOnScores(batch.x, batch.y, byAutograd(nwjBound));
    }
    double moved = 0, apart = 0;
    at::Generator fresh = at::make_generator<at::CPUGeneratorImpl>(3);
    const JointCritic initial(6, 4, {16, 8}, 1e-2, c10::kCPU, fresh);
    for (size_t i = 0; i < reference.parameters().size(); ++i) {
      moved = std::max(moved, (reference.parameters()[i] - initial.parameters()[i]).abs().max().item<double>());
      apart = std::max(apart, (written.parameters()[i] - reference.parameters()[i]).abs().max().item<double>());
    }
    QVERIFY2(moved > 0.05, qPrintable(QString("the steps moved the critic by %1 only").arg(moved)));
    QVERIFY2(apart < 1e-4 * moved, qPrintable(QString("apart by %1 after moving %2").arg(apart).arg(moved)));
  }

  // A step keeps nothing of its batch once the next has run: the pass once recorded an autograd node each step that
  // held its batch, and chained it to the last, so a long run's memory grew by K x the input's width a step.
  void aStepKeepsNoEarlierBatch() {
    at::Generator a = at::make_generator<at::CPUGeneratorImpl>(3);
    JointCritic written(6, 4, {16, 8}, 1e-2, c10::kCPU, a);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(8);
    Pairs first = pairs(64, data);
    QVERIFY(JointCpuPass::takes(written.parameters(), first.x, first.y));
    written.trainOnScores(first.x, first.y, byAutograd(nwjBound));
    for (int step = 0; step < 3; ++step) {
      const Pairs batch = pairs(64, data);
      written.trainOnScores(batch.x, batch.y, byAutograd(nwjBound));
    }
    QCOMPARE(first.x.use_count(), 1L);  // only this test's handle
    QCOMPARE(first.y.use_count(), 1L);
  }
};

QTEST_GUILESS_MAIN(TestJointStep)
#include "test_joint_step.moc"
