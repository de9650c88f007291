// f-DIME (plugins/dime): the derangement that makes its marginal pairs, each divergence's objective and reading
// against a loop in double, the oracle reading the truth, and the paper's finding: with a derangement GAN-DIME reads
// above log(batch), with a plain permutation it stays below it.
#include <QtTest>
#include <cmath>
#include <functional>

#include "dime_objectives.h"
#include "engine/device.h"
#include "engine/run.h"
#include "method/method_registry.h"
#include "nn/derangement.h"

using namespace milab;

namespace {

double softplus(double t) { return std::log1p(std::exp(t)); }
double sigmoid(double t) { return 1 / (1 + std::exp(-t)); }

// The paper's code, transcribed with its D: (phiJoint, phiMarginal, log R) of one output T.
struct Transcribed {
  std::function<double(double)> joint, marginal, logRatio;
};
Transcribed transcribed(FDivergence d) {
  switch (d) {
    case FDivergence::Kl:  // my_binary_crossentropy(1, D) on joint pairs, wasserstein_loss(1, D) on marginal ones
      return {[](double t) { return -std::log(softplus(t)); }, [](double t) { return softplus(t); },
              [](double t) { return std::log(softplus(t)); }};
    case FDivergence::Gan:  // BCE(D, 0) on joint pairs, BCE(D, 1) on marginal ones; R = (1 - D) / D
      return {[](double t) { return -std::log(1 - sigmoid(t)); }, [](double t) { return -std::log(sigmoid(t)); },
              [](double t) { return std::log((1 - sigmoid(t)) / sigmoid(t)); }};
    case FDivergence::Hellinger:  // wasserstein_loss(1, D) on joint pairs, reciprocal_loss(1, D) on marginal ones
      return {[](double t) { return softplus(t); }, [](double t) { return 1 / softplus(t); },
              [](double t) { return std::log(1 / (softplus(t) * softplus(t))); }};
  }
  return {};
}

}  // namespace

class TestDime : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    for (const char* id : {"kl-dime", "gan-dime", "hd-dime"}) QVERIFY2(registry_.find(id), id);
  }

  // No row ever meets itself, at every batch size from 2 to 130 over many seeds; and at n = 6 every off-diagonal
  // pairing (i, j) is drawn, so no marginal pair is out of reach.
  void derangementHasNoFixedPointAtAnySize() {
    for (int seed = 1; seed <= 8; ++seed) {
      at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
      for (int64_t n = 2; n <= 130; ++n) {
        const at::Tensor d = randomDerangement(n, gen, at::TensorOptions());
        QVERIFY2(!at::eq(d, at::arange(n, at::kLong)).any().item<bool>(), qPrintable(QString::number(n)));
        QVERIFY(at::equal(std::get<0>(d.sort()), at::arange(n, at::kLong)));
      }
    }
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(3);
    at::Tensor reached = at::zeros({6, 6}, at::kLong);
    for (int draw = 0; draw < 3000; ++draw) {
      const at::Tensor partner = randomDerangement(6, gen, at::TensorOptions());
      for (int64_t i = 0; i < 6; ++i) reached[i][partner[i].item<int64_t>()] += 1;
    }
    QCOMPARE(reached.diagonal().sum().item<int64_t>(), 0);
    QCOMPARE((reached > 0).sum().item<int64_t>(), 30);  // all 6 x 5 off-diagonal positions
  }

  // Each objective and reading against the paper's formulas evaluated loop by loop in double, on outputs from -8
  // to 8: one marginal pair per row, and every off-diagonal pair of a [B, B] matrix.
  void objectivesMatchTheirTranscription_data() {
    QTest::addColumn<int>("divergence");
    QTest::newRow("KL") << int(FDivergence::Kl);
    QTest::newRow("GAN") << int(FDivergence::Gan);
    QTest::newRow("HD") << int(FDivergence::Hellinger);
  }
  void objectivesMatchTheirTranscription() {
    QFETCH(int, divergence);
    const auto d = FDivergence(divergence);
    const Transcribed f = transcribed(d);
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(5);
    const int64_t n = 7;
    const at::Tensor joint = at::rand({n}, gen, at::kDouble) * 16 - 8;
    const at::Tensor paired = at::rand({n}, gen, at::kDouble) * 16 - 8;
    at::Tensor all = at::rand({n, n}, gen, at::kDouble) * 16 - 8;
    all.diagonal().copy_(joint);
    double jointMean = 0, pairedMean = 0, offMean = 0, reading = 0;
    for (int64_t i = 0; i < n; ++i) {
      jointMean += f.joint(joint[i].item<double>()) / n;
      pairedMean += f.marginal(paired[i].item<double>()) / n;
      reading += f.logRatio(joint[i].item<double>()) / n;
      for (int64_t j = 0; j < n; ++j)
        if (i != j) offMean += f.marginal(all[i][j].item<double>()) / double(n * (n - 1));
    }
    QVERIFY(std::abs(dimeLoss(d, joint, paired).item<double>() - (jointMean + pairedMean)) < 1e-9);
    QVERIFY(std::abs(dimeLoss(d, joint, all).item<double>() - (jointMean + offMean)) < 1e-9);
    QVERIFY(std::abs(dimeLogRatio(d, joint).mean().item<double>() - reading) < 1e-9);
    // The oracle's inverse: log R(T(l)) = l, from -20 to 20 nats.
    const at::Tensor logRatio = at::linspace(-20, 20, 81, at::kDouble);
    QVERIFY(at::allclose(dimeLogRatio(d, dimeCriticOfLogRatio(d, logRatio)), logRatio, 1e-9, 1e-9));
    // Far outputs keep finite gradients (KL-DIME's went NaN at MI 10 through where()'s unused branch).
    const at::Tensor far = at::tensor({-60.0, -35.0, -5.0, 0.0, 35.0}, at::kDouble).requires_grad_();
    dimeLoss(d, far, far.flip(0)).backward();
    QVERIFY(at::isfinite(far.grad()).all().item<bool>());
  }

  // The variational principle each objective rests on, with no transcription of it: where the joint law has
  // density ratio R to the product of marginals, the expected loss per pair is R phi_joint(T) + phi_marginal(T),
  // and its minimiser T* must read log R through the divergence's reading. Checked by a grid search over T (step
  // 1e-4 on [-25, 25]) for R from e^-4 to e^3: a sign or factor wrong in either phi or in the reading moves T*.
  void eachObjectiveIsMinimisedWhereItsReadingIsTheLogRatio_data() { objectivesMatchTheirTranscription_data(); }
  void eachObjectiveIsMinimisedWhereItsReadingIsTheLogRatio() {
    QFETCH(int, divergence);
    const auto d = FDivergence(divergence);
    const at::Tensor t = at::linspace(-25, 25, 500001, at::kDouble);
    const at::Tensor joint = dimePhiJoint(d, t), marginal = dimePhiMarginal(d, t);
    for (double logR : {-4.0, -1.0, 0.0, 0.5, 2.0, 3.0}) {
      const int64_t best = (std::exp(logR) * joint + marginal).argmin().item<int64_t>();
      QVERIFY2(best > 0 && best < t.numel() - 1, "the minimiser lies inside the grid");
      const double read = dimeLogRatio(d, t.narrow(0, best, 1)).item<double>();
      QVERIFY2(
          std::abs(read - logR) < 1e-3,
          qPrintable(QStringLiteral("log R %1: T* = %2 reads %3").arg(logR).arg(t[best].item<double>()).arg(read)));
    }
  }

  // With the task's exact PMI as log R, each reading is E_joint[PMI]: the truth within its standard error, at MI 2
  // and 10. (The kind of marginal pairs is no row here: it changes the objective, which the oracle never trains.)
  void oracleReadsTheTruth_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<double>("mi");
    QTest::addColumn<QString>("negatives");
    for (const char* m : {"kl-dime", "gan-dime", "hd-dime"})
      for (double mi : {2.0, 10.0})
        QTest::newRow(qPrintable(QStringLiteral("%1 MI %2").arg(m).arg(mi))) << QString(m) << mi << "derangement";
  }
  void oracleReadsTheTruth() {
    QFETCH(QString, method);
    QFETCH(double, mi);
    QFETCH(QString, negatives);
    const RunResult r = run(method, mi, 1, {{"critic", "oracle"}, {"negatives", negatives}}, 200);
    qInfo("oracle %s at MI %.0f: %.4f +- %.4f", qPrintable(method), mi, r.estimate, r.stderror);
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY(std::abs(r.estimate - r.trueMi) < 4 * r.stderror);
    QVERIFY(r.stderror < 0.05 * mi);  // it could tell
  }

  // The paper's point (its permutation-vs-derangement figure): at MI 10 (d = 20, batch 128, 3000 steps, seed 1) GAN-
  // DIME with deranged marginal pairs reads 8.56 here, far above log 128 = 4.85; with a random permutation (1/128 of
  // its "marginal" pairs are joint ones, which caps R near 128) it reads 4.83, just under log 128.
  void ganDimePassesLogBatchOnlyWithADerangement() {
    const RunResult deranged = run("gan-dime", 10.0, 3000, {{"negatives", "derangement"}});
    const RunResult permuted = run("gan-dime", 10.0, 3000, {{"negatives", "permutation"}});
    qInfo("gan-dime at MI 10: derangement %.3f +- %.3f, permutation %.3f +- %.3f", deranged.estimate, deranged.stderror,
          permuted.estimate, permuted.stderror);
    const double logBatch = std::log(128.0);
    QVERIFY(deranged.estimate > logBatch + 2.5);
    QVERIFY(permuted.estimate < logBatch + 0.3);
    QVERIFY(deranged.estimate > permuted.estimate + 2.5);
  }

  // Bad input names its key: batch below 2 (a derangement needs two rows), an unknown kind of pair or critic.
  void badInputNamesTheKey() {
    const auto refusal = [this](const ParamMap& params) {
      RunSpec s = spec("gan-dime", 2.0, 10);
      s.methodParams.insert(params);
      return validateRunSpec(&s, registry_);
    };
    QCOMPARE(refusal({{"batch", 1}}), QString("batch: must be an integer in [2, 65536], got 1"));
    QVERIFY2(
        refusal({{"negatives", "shuffle"}}).startsWith("negatives: must be one of derangement|permutation|all-pairs"),
        qPrintable(refusal({{"negatives", "shuffle"}})));
    QVERIFY(refusal({{"critic", "mlp"}}).startsWith("critic:"));
    QCOMPARE(refusal({}), QString());
  }

 private:
  RunSpec spec(const QString& method, double mi, int steps, int evalBatches = 20) {
    RunSpec s;
    s.task = "gaussian2";
    s.taskParams = {{"dim", 20}, {"mi", mi}};
    s.method = method;
    s.methodParams = {{"batch", 128}};
    s.steps = steps;
    s.seed = 1;
    s.evalBatches = evalBatches;
    s.device = "cpu";
    return s;
  }
  RunResult run(const QString& method, double mi, int steps, const ParamMap& extra, int evalBatches = 20) {
    RunSpec s = spec(method, mi, steps, evalBatches);
    s.methodParams.insert(extra);
    const QString err = validateRunSpec(&s, registry_);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    Run r(s, registry_.find(method));
    return runToCompletion(r);
  }

  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestDime)
#include "test_dime.moc"
