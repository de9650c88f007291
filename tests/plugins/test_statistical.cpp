// Fixed-seed training checks of the issue, short enough for CI (label: statistical). Tolerances are the
// issue's; the figures they produce are printed so a regression shows how far it moved.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QtTest>
#include <array>
#include <cmath>

#include "demi/decomposed_estimator.h"
#include "engine/device.h"
#include "engine/run.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"
#include "tasks/task_sampler.h"

using namespace milab;

namespace {

RunResult train(const MethodRegistry& registry, const QVariantMap& flat, QVector<CurvePoint>* curve = nullptr) {
  RunSpec spec;
  const QString err = runSpecFromFlat(flat, registry, &spec);
  if (!err.isEmpty()) qFatal("%s", qPrintable(err));
  Run run(spec, registry.find(spec.method));
  const RunResult r = runToCompletion(run);
  if (curve) *curve = run.curve();
  qInfo("%s on %s K=%d, %d steps: %.3f +- %.3f nats (true %.3f, ceiling %.3f) in %.1f s", qPrintable(spec.method),
        qPrintable(spec.task), spec.methodParams.value("K").toInt(), r.stepsDone, r.estimate, r.stderror, r.trueMi,
        r.ceilings.value(0).value, r.seconds);
  return r;
}

// The setting of the two-way DEMI comparisons: gaussian3, d = 20, alpha 0.5, K = 128, 400 steps.
RunSpec twoWaySetting(const MethodRegistry& registry, const QString& method, double mi) {
  RunSpec spec;
  const QString err = runSpecFromFlat(
      {{"task", "gaussian3"}, {"dim", 20}, {"mi", mi}, {"alpha", 0.5}, {"method", method}, {"K", 128}, {"steps", 400}},
      registry, &spec);
  if (!err.isEmpty()) qFatal("%s", qPrintable(err));
  return spec;
}

// Two estimators of the spec's method with the same initial networks and noise, estimator k reading samplers[k].
std::array<std::unique_ptr<Estimator>, 2> twins(const MethodRegistry& registry, const RunSpec& spec,
                                                std::array<const TaskSampler*, 2> samplers) {
  std::array<std::unique_ptr<Estimator>, 2> out;
  for (int k = 0; k < 2; ++k) {
    EstimatorContext context;
    context.task = samplers[k];
    context.generator = context.noise = at::make_generator<at::CPUGeneratorImpl>(7);
    context.params = spec.methodParams;
    out[k] = registry.find(spec.method)->create(context);
  }
  return out;
}

// The mean and standard error of an estimator's readings on `batches` fresh joint batches of its own batch size.
struct Reading {
  double mean, stderror;
};
std::vector<Reading> readings(const std::vector<Estimator*>& estimators, const TaskSampler& task, at::Generator& data,
                              int batches = 30) {
  std::vector<std::vector<double>> values(estimators.size());
  for (int i = 0; i < batches; ++i) {
    const Batch batch = task.sampleJoint(estimators[0]->batchSize(), data);
    for (size_t k = 0; k < estimators.size(); ++k) values[k].push_back(estimators[k]->evaluate(batch).value);
  }
  std::vector<Reading> out;
  for (const std::vector<double>& v : values) {
    const at::Tensor r = at::tensor(v, at::kDouble);
    out.push_back({r.mean().item<double>(), r.std().item<double>() / std::sqrt(double(batches))});
  }
  return out;
}

// The Gaussian task's sampler with the conditional negatives drawn as before Philox (issue 27): at::randn's
// Mersenne Twister, scaled and shifted by p(y|x')'s moments. Everything else is the task's own.
class MersenneNegatives final : public TaskSampler {
 public:
  explicit MersenneNegatives(const TaskSampler& inner) : TaskSampler(inner.device()), inner_(inner) {}
  int dimX() const override { return inner_.dimX(); }
  int dimY() const override { return inner_.dimY(); }
  bool hasSubview() const override { return inner_.hasSubview(); }
  Batch sampleJoint(int64_t n, at::Generator& gen) const override { return inner_.sampleJoint(n, gen); }
  at::Tensor sampleYGivenXp(const at::Tensor& xp, int64_t perRow, at::Generator& gen) const override {
    const DiagonalGaussian p = inner_.yGivenXp(xp);
    const at::Tensor noise = at::randn({xp.size(0), perRow, xp.size(1)}, gen, xp.options());
    return noise.mul((0.5 * p.logVar).exp().to(at::kFloat).unsqueeze(1)).add_(p.mean.to(at::kFloat).unsqueeze(1));
  }
  DiagonalGaussian yGivenXp(const at::Tensor& xp) const override { return inner_.yGivenXp(xp); }
  at::Tensor pmi(const at::Tensor& x, const at::Tensor& xp, const at::Tensor& y) const override {
    return inner_.pmi(x, xp, y);
  }
  at::Tensor subviewPmi(const at::Tensor& xp, const at::Tensor& y) const override { return inner_.subviewPmi(xp, y); }

 private:
  const TaskSampler& inner_;
};

}  // namespace

class TestStatistical : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  // gaussian2 d=20 MI=2: InfoNCE at K=128 lands within 0.3 nats of 2 (the oracle critic reaches ~1.88).
  void infonceOnGaussian2() {
    const RunResult r = train(registry_, {{"task", "gaussian2"},
                                          {"dim", 20},
                                          {"mi", 2.0},
                                          {"method", "infonce"},
                                          {"K", 128},
                                          {"steps", 3000},
                                          {"seed", 1}});
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY(std::abs(r.estimate - 2.0) < 0.3);
  }

  // gaussian2 d=20 MI=2: the comparators land within 0.4 nats of 2 (issue 3).
  void comparatorsOnGaussian2_data() {
    QTest::addColumn<QString>("method");
    for (const char* m : {"local-nce", "nwj", "mine", "smile"}) QTest::newRow(m) << m;
  }
  void comparatorsOnGaussian2() {
    QFETCH(QString, method);
    const RunResult r = train(registry_, {{"task", "gaussian2"},
                                          {"dim", 20},
                                          {"mi", 2.0},
                                          {"method", method},
                                          {"K", 128},
                                          {"steps", 3000},
                                          {"seed", 1}});
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY2(std::abs(r.estimate - 2.0) < 0.4, qPrintable(QString::number(r.estimate)));
  }

  // gaussian3 d=20 MI=10: DEMI at K=128 beats InfoNCE at K=128 by at least 1.5 nats, and stays below the truth.
  // (Neither can pass its ceiling, log 128 = 4.85 and 2 log 64 = 8.32, on any batch: test_conformance keeps that
  // as a property of every method; it is no evidence here.)
  void demiBeatsInfonceOnGaussian3() {
    const RunResult i = onGaussian3("infonce"), d = demi();
    QCOMPARE(i.status, RunStatus::Finished);
    QCOMPARE(d.status, RunStatus::Finished);
    QVERIFY2(d.estimate - i.estimate >= 1.5, qPrintable(QString::number(d.estimate - i.estimate)));
    QVERIFY(d.estimate <= d.trueMi);
  }

  // Same setting: DEMI-BO, which never sees p(y|x') in training, lands within 1 nat of DEMI (issue 3), both
  // evaluated by I_DEMI with true p(y|x') negatives (Figure 2 top).
  void demiBoLandsNearDemi() {
    const RunResult bo = onGaussian3("demi-bo"), d = demi();
    QCOMPARE(bo.status, RunStatus::Finished);
    QVERIFY2(std::abs(bo.estimate - d.estimate) <= 1.0, qPrintable(QString::number(bo.estimate - d.estimate)));
  }

  // The DEMI variants' steps with their backward written out (demi_step.h) against the same
  // variants trained by autograd on their conditionalObjective (DecomposedEstimator::trainByAutograd), on gaussian3
  // d = 20, K = 128, 400 steps on the same batches and draws: the written-out step sums in another order, so the two
  // runs part by rounding; the first step's readings agree to 1e-4, and what they read at the end agrees within
  // twice their combined standard error (30 evaluation batches each).
  void writtenOutDemiStepsReadAsAutograds_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<double>("mi");
    for (double mi : {5.0, 10.0, 20.0}) QTest::newRow(qPrintable(QString("demi, MI %1").arg(mi))) << "demi" << mi;
    for (const char* m : {"demi-bo", "demi-is", "demi-var"})
      QTest::newRow(qPrintable(QString("%1, MI 10").arg(m))) << m << 10.0;
  }
  void writtenOutDemiStepsReadAsAutograds() {
    QFETCH(QString, method);
    QFETCH(double, mi);
    const RunSpec spec = twoWaySetting(registry_, method, mi);
    const std::unique_ptr<TaskSampler> task = buildTask(spec.task, spec.taskParams, 1)->sampler(c10::kCPU);
    const auto estimators = twins(registry_, spec, {task.get(), task.get()});
    auto* autograd = dynamic_cast<DecomposedEstimator*>(estimators[0].get());
    QVERIFY(autograd);
    autograd->trainByAutograd(true);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(2);
    const int64_t b = estimators[0]->batchSize();
    for (int step = 0; step < 400; ++step) {
      const Batch batch = task->sampleJoint(b, data);
      const StepResult theirs = estimators[0]->trainStep(batch), ours = estimators[1]->trainStep(batch);
      QVERIFY(std::isfinite(ours.estimate.value()) && std::isfinite(ours.loss.value()));
      if (step == 0) {
        QVERIFY2(std::abs(ours.estimate.value() - theirs.estimate.value()) < 1e-4, "first estimate");
        QVERIFY2(std::abs(ours.loss.value() - theirs.loss.value()) < 1e-4, "first loss");
      }
    }
    const std::vector<Reading> r = readings({estimators[0].get(), estimators[1].get()}, *task, data);
    const double mean[2] = {r[0].mean, r[1].mean}, se[2] = {r[0].stderror, r[1].stderror};
    const double tolerance = 2 * std::hypot(se[0], se[1]);
    qInfo("%s MI %.0f: autograd %.3f +- %.3f, written out %.3f +- %.3f", qPrintable(method), mi, mean[0], se[0],
          mean[1], se[1]);
    QVERIFY2(std::abs(mean[0] - mean[1]) <= tolerance,
             qPrintable(QString("%1 apart, %2 allowed").arg(mean[0] - mean[1]).arg(tolerance)));
    QVERIFY(mean[1] > 0.5 * std::min(mi, 2 * std::log(64.0)));  // both learned: the check is not of two blanks
  }

  // The conditional negatives' draws moved from at::randn (Mersenne Twister) to Philox (random/philox_normals,
  // issue 27): other draws, the same law. DEMI, CNCE and DEMI-VAR trained on the same joint batches with each
  // (gaussian3 d = 20, K = 128, 400 steps, the same initial networks) read the same within twice their combined
  // standard error (30 evaluation batches each, their negatives drawn the way each was trained) at MI 5, 10, 20;
  // DEMI-SIR, whose training draws none, only reads them: its two readings of one critic agree the same way.
  void philoxNegativesReadAsMersennes_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<double>("mi");
    for (double mi : {5.0, 10.0, 20.0}) QTest::newRow(qPrintable(QString("demi, MI %1").arg(mi))) << "demi" << mi;
    for (const char* m : {"cnce", "demi-var", "demi-sir"})
      QTest::newRow(qPrintable(QString("%1, MI 10").arg(m))) << m << 10.0;
  }
  void philoxNegativesReadAsMersennes() {
    QFETCH(QString, method);
    QFETCH(double, mi);
    const RunSpec spec = twoWaySetting(registry_, method, mi);
    const std::unique_ptr<TaskSampler> philox = buildTask(spec.task, spec.taskParams, 1)->sampler(c10::kCPU);
    const MersenneNegatives mersenne(*philox);
    const auto estimators = twins(registry_, spec, {&mersenne, philox.get()});
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(2);
    for (int step = 0; step < 400; ++step) {
      const Batch batch = philox->sampleJoint(estimators[0]->batchSize(), data);
      for (const std::unique_ptr<Estimator>& e : estimators) QVERIFY(std::isfinite(e->trainStep(batch).loss.value()));
    }
    const std::vector<Reading> r = readings({estimators[0].get(), estimators[1].get()}, *philox, data);
    const double tolerance = 2 * std::hypot(r[0].stderror, r[1].stderror);
    qInfo("%s MI %.0f: Mersenne negatives %.3f +- %.3f, Philox %.3f +- %.3f", qPrintable(method), mi, r[0].mean,
          r[0].stderror, r[1].mean, r[1].stderror);
    QVERIFY2(std::abs(r[0].mean - r[1].mean) <= tolerance,
             qPrintable(QString("%1 apart, %2 allowed").arg(r[0].mean - r[1].mean).arg(tolerance)));
    // Both learned (the check is not of two blanks): half of what each can read, its truth or its ceiling (cnce
    // reads I(x;y|x') = (1 - alpha) MI alone, at most log K).
    const double readable = method == "cnce" ? std::min(0.5 * mi, std::log(128.0)) : std::min(mi, 2 * std::log(64.0));
    QVERIFY(r[1].mean > 0.5 * readable);
  }

  // Local NCE reads E_joint[s] + log(N - 1), where binary NCE's optimal critic is s = PMI - log(N - 1). An oracle
  // cannot tell the offset (it adds and subtracts the same number); a trained critic can. At N = 2 a log N in its
  // place would read log 2 = 0.69 high: the trained reading (measured 2.09 for 2, 4,000 evaluation pairs) must be
  // within half of that.
  void localNceReadsWithTheRightOffset() {
    const RunResult r = train(registry_, {{"task", "gaussian2"},
                                          {"dim", 5},
                                          {"mi", 2.0},
                                          {"method", "local-nce"},
                                          {"K", 2},
                                          {"steps", 2000},
                                          {"eval_batches", 4000},
                                          {"seed", 1}});
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY2(std::abs(r.estimate - 2.0) < 0.5 * std::log(2.0), qPrintable(QString::number(r.estimate)));
  }

  // DEMI-VAR's training reading is I_NCE(x';y) + I_VAR(x;y|x'), and I_VAR subtracts KL(p(y|x') || q). At its
  // first step q is an untrained network near the standard normal, i.e. near p(y), and E_x' KL(p(y|x') || p(y)) is
  // exactly I(x';y) (4.87 here): the first reading must sit below 0 by at least half of it (measured: -5.89),
  // where a reading without the KL would be the two contrastive terms alone, about 0.
  void demiVarReadsTheKlOfItsProposal() {
    QVector<CurvePoint> curve;
    const RunResult r = train(
        registry_,
        {{"task", "gaussian3"}, {"dim", 20}, {"mi", 10.0}, {"method", "demi-var"}, {"steps", 20}, {"seed", 1}}, &curve);
    double subview = 0;
    for (const NamedValue& t : r.truths)
      if (t.name == "I(x';y)") subview = t.value;
    QVERIFY(subview > 4);
    qInfo("demi-var's first training reading %.4f, I(x';y) %.4f", curve.first().estimate, subview);
    QVERIFY2(curve.first().estimate < -0.5 * subview, qPrintable(QString::number(curve.first().estimate)));
  }

  // gaussian2 d=20: NCE drives the density model's log total mass (17.3 after its first step) to within 0.1 of 0,
  // the closed form of a normalised density. (A check on the first step said nothing: it holds before training.)
  void nceDensityNormalises() {
    const RunResult r =
        train(registry_, {{"task", "gaussian2"}, {"dim", 20}, {"method", "nce-density"}, {"steps", 2000}, {"seed", 1}});
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY2(std::abs(r.estimate) < 0.1, qPrintable(QString::number(r.estimate)));
  }

  // gaussian2 d=4 MI=2 with m = 8 bits: BMMI (exact H(Z) over a pool of 2048 samples' aggregate posterior, minus
  // an upper bound on H(Z|X)) is a positive lower bound on I(X;Z) <= I(X;Y) (issue 4).
  void bmmiIsAPositiveLowerBound() {
    const RunResult& r = bmmi();
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY2(r.estimate > 0.5, qPrintable(QString::number(r.estimate)));
    QVERIFY(r.estimate <= r.trueMi + 4 * r.stderror);
  }

  // AMMI with a prior that can represent any code distribution (order r = m - 1) lands within 0.3 nats of BMMI:
  // the cross entropy H+(Z) then stands in for the exact H(Z).
  void ammiWithAFullOrderPriorMatchesBmmi() {
    const RunResult a = onMarkovTask("ammi", {{"order_prior", 7}, {"steps", 500}, {"settle_steps", 200}});
    QCOMPARE(a.status, RunStatus::Finished);
    QVERIFY2(std::abs(a.estimate - bmmi().estimate) < 0.3,
             qPrintable(QString("ammi %1 vs bmmi %2").arg(a.estimate).arg(bmmi().estimate)));
    QVERIFY2(a.warning.isEmpty(), qPrintable(a.warning));  // a prior that is not fooled raises no warning
  }

  // The default prior order (auto: m - 1 at the default m = 8) is not fooled either, with every other setting at
  // its default.
  void ammiDefaultsAreNotFooled() {
    const RunResult a = onMarkovTask("ammi", {{"steps", 1500}, {"eval_pool", 512}});
    QCOMPARE(a.status, RunStatus::Finished);
    qInfo("ammi defaults: estimate %.3f, H+(Z) %.3f, exact H(Z) %.3f", a.estimate, termValue(a, "H+(Z)"),
          termValue(a, "H(Z) exact over the pool"));
    QVERIFY2(a.warning.isEmpty(), qPrintable(a.warning));
    QVERIFY(termValue(a, "H+(Z)") - termValue(a, "H(Z) exact over the pool") < 0.5);
  }

  // The issue asked that AMMI at r = 3 land within 0.3 of BMMI. It does not: with an order-3 prior over 8 bits the
  // encoder learns codes whose every 4-bit window looks uniform, so even a prior settled on the frozen encoder reads
  // H+(Z) more than 1 nat above the pool's exact H(Z), and the estimate overshoots BMMI (the paper's r >> o warning,
  // Figure 1(a)). This check keeps that finding honest: it fails if the over-reading goes away.
  void ammiAtOrder3IsFooledByItsEncoder() {
    const RunResult a = onMarkovTask("ammi", {{"order_prior", 3}, {"steps", 1500}});
    QCOMPARE(a.status, RunStatus::Finished);
    const double crossEntropy = termValue(a, "H+(Z)"), exact = termValue(a, "H(Z) exact over the pool");
    qInfo("ammi r=3: H+(Z) %.3f, exact H(Z) %.3f, estimate %.3f vs bmmi %.3f", crossEntropy, exact, a.estimate,
          bmmi().estimate);
    QVERIFY(crossEntropy - exact > 1.0);
    QVERIFY(a.estimate > bmmi().estimate + 0.3);
    // ... and the result says so, naming the key to change.
    QVERIFY2(a.warning.contains("raise order_prior"), qPrintable(a.warning));
  }

  // Beyond contrastive bounds (issue 14). DoE on gaussian2 d=20 with MI = 10 nats, far above log 128 = 4.85:
  // within 10% of the truth with the Gaussian family (well specified here); the logistic family too.
  void doeReadsLargeMi_data() {
    QTest::addColumn<QString>("method");
    QTest::newRow("doe") << "doe";
    QTest::newRow("doe-logistic") << "doe-logistic";
  }
  void doeReadsLargeMi() {
    QFETCH(QString, method);
    const RunResult r = train(registry_, {{"task", "gaussian2"},
                                          {"dim", 20},
                                          {"mi", 10.0},
                                          {"method", method},
                                          {"batch", 128},
                                          {"steps", 2000},
                                          {"seed", 1}});
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY2(std::abs(r.estimate - 10.0) < 1.0, qPrintable(QString::number(r.estimate)));
    QCOMPARE(r.terms.size(), 2);
    QCOMPARE(r.terms[0].name, QString("H+(Y)"));
    QCOMPARE(r.terms[1].name, QString("H+(Y|X)"));
  }

  // CLUB on gaussian2 d=20, MI = 2: at or above the truth, within its standard-error margin; with q close to
  // p(y|x) it lands near its oracle value sum_i (1/sigma_i^2 - 1) = 20 (e^0.2 - 1) = 4.43, which is above 2.
  void clubSitsAboveTheTruth_data() {
    QTest::addColumn<QString>("method");
    QTest::newRow("club") << "club";
    QTest::newRow("club-sample") << "club-sample";
  }
  void clubSitsAboveTheTruth() {
    QFETCH(QString, method);
    const RunResult r = train(
        registry_, {{"task", "gaussian2"}, {"dim", 20}, {"mi", 2.0}, {"method", method}, {"steps", 2000}, {"seed", 1}});
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY(r.estimate >= r.trueMi - 4 * r.stderror);
    QVERIFY2(std::abs(r.estimate - 20 * (std::exp(0.2) - 1)) < 0.5, qPrintable(QString::number(r.estimate)));
  }

  // KSG is accurate in low dimension: d = 2, MI = 1, 2,000 samples, within 0.05 (measured 1.010 at seed 1).
  void ksgIsAccurateInLowDimension() {
    const RunResult r =
        train(registry_,
              {{"task", "gaussian2"}, {"dim", 2}, {"mi", 1.0}, {"method", "ksg"}, {"set_size", 2000}, {"seed", 1}});
    QCOMPARE(r.status, RunStatus::Finished);
    QCOMPARE(r.stepsDone, 0);  // nothing trained
    QVERIFY2(std::abs(r.estimate - 1.0) < 0.05, qPrintable(QString::number(r.estimate)));
  }

  // Frenzel-Pompe on gaussian3 d = 2, MI = 1: within 0.1 of I(x;y|x'). Its joint space has 6 dimensions, where
  // KSG's downward bias shrinks slowly with N (measured at seed 1: -0.096 at 2,000 samples, -0.041 at 8,000),
  // so the check uses 4,000. And the weakness shows honestly: at d = 20, MI = 10, KSG reads about 2.
  void ksgCmiReadsTheConditionalMi() {
    const RunResult r =
        train(registry_,
              {{"task", "gaussian3"}, {"dim", 2}, {"mi", 1.0}, {"method", "ksg-cmi"}, {"set_size", 4000}, {"seed", 1}});
    QCOMPARE(r.status, RunStatus::Finished);
    QCOMPARE(r.targetName, QString("I(x;y|x')"));
    QVERIFY2(std::abs(r.estimate - r.trueMi) < 0.1, qPrintable(QString::number(r.estimate)));
    const RunResult high =
        train(registry_,
              {{"task", "gaussian2"}, {"dim", 20}, {"mi", 10.0}, {"method", "ksg"}, {"set_size", 1000}, {"seed", 1}});
    // KSG's known failure at high MI (Gao, Ver Steeg & Galstyan, AISTATS 2015: kNN estimators need a number of
    // samples exponential in the MI): here it reads 1.75 of 10 nats, a regression value measured here; within 0.5
    // of it, so that a change shows.
    qInfo("KSG at d = 20, MI = 10, 1,000 samples: %.4f", high.estimate);
    QVERIFY2(std::abs(high.estimate - 1.75) < 0.5, qPrintable(QString::number(high.estimate)));
  }

  // References from outside this code. karlstratos/doe's README (the companion code of McAllester & Stratos,
  // "Formal Limitations on the Measurement of Mutual Information", AISTATS 2020) reports, for correlated standard
  // normals with dim 128 and rho 0.5 per dimension (I = -64 log 0.75 = 18.41), N = 128 samples per batch and
  // 3000 steps: doe 18.38, and cpc (InfoNCE) 4.82 under ln 128 = 4.85. gaussian2 with dim 128 and MI 18.41 is that
  // law (rho_i = 0.5 in every dimension). Each published number is the one of 100 random-search runs whose
  // reading, on one batch of 128 fresh samples, came closest to the truth (its main.py, meta_main): a selected
  // maximum, not a typical run. So the lab's mean over 20 batches may sit below it by the spread the search
  // selects from: one batch's reading of DoE here has a standard deviation of about 0.5 nats (0.106 x sqrt 20;
  // 0.6 before the Gaussian sampler moved to Philox), and 2.5 of the larger is 1.5 nats; above the truth it may not go
  // by more than 0.5. InfoNCE, pinned under its ceiling at 18 nats of MI, has a single-batch spread of 0.05: at the
  // capacity of the README's best cpc run (256 hidden units) it must read within 0.15 of 4.82.
  void doeAndInfonceAtTheDoePapersSetting() {
    const double mi = -64 * std::log(0.75);
    const RunResult doe = train(registry_, {{"task", "gaussian2"},
                                            {"dim", 128},
                                            {"mi", mi},
                                            {"method", "doe"},
                                            {"batch", 128},
                                            {"steps", 3000},
                                            {"seed", 1}});
    QCOMPARE(doe.status, RunStatus::Finished);
    QVERIFY2(doe.estimate > 18.38 - 1.5 && doe.estimate < mi + 0.5, qPrintable(QString::number(doe.estimate)));
    const RunResult nce = train(registry_, {{"task", "gaussian2"},
                                            {"dim", 128},
                                            {"mi", mi},
                                            {"method", "infonce"},
                                            {"K", 128},
                                            {"hidden", 256},
                                            {"embed", 256},
                                            {"steps", 3000},
                                            {"seed", 1}});
    QCOMPARE(nce.status, RunStatus::Finished);
    QVERIFY2(std::abs(nce.estimate - 4.82) < 0.15, qPrintable(QString::number(nce.estimate)));
  }

  // Song & Ermon ("Understanding the Limitations of Variational Mutual Information Estimators", ICLR 2020, Fig. 1)
  // and Poole et al. ("On Variational Bounds of Mutual Information", ICML 2019, Fig. 2): their staircase (20
  // dimensions, MI 2, 4, 6, 8, 10, 4000 steps a level, batch 64) shows InfoNCE (CPC) following the truth at 2 nats
  // and flattening under log 64 = 4.16 as the MI grows. The same staircase here: level 1 within 0.35 of 2 (the
  // lab reads 1.72: training batches, 64 candidates); from MI 6 to MI 10 the reading rises by less than 0.5 nats
  // while the truth rises by 4; at MI 10 it is within 0.1 of log 64.
  void infonceStaircaseFlattensUnderLog64() {
    RunSpec spec;
    const QString err = runSpecFromFlat({{"task", "gaussian2"},
                                         {"dim", 20},
                                         {"method", "infonce"},
                                         {"K", 64},
                                         {"mi_schedule", "2,4,6,8,10"},
                                         {"steps_per_level", 4000},
                                         {"seed", 1}},
                                        registry_, &spec);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    Run run(spec, registry_.find("infonce"));
    const RunResult r = runToCompletion(run);
    QCOMPARE(r.status, RunStatus::Finished);
    QCOMPARE(r.levels.size(), 5);
    for (const LevelResult& l : r.levels) qInfo("InfoNCE at MI %.0f: %.4f (log 64 = 4.1589)", l.mi, l.mean);
    QVERIFY(std::abs(r.levels[0].mean - 2.0) < 0.35);
    QVERIFY2(r.levels[4].mean - r.levels[2].mean < 0.5,
             qPrintable(QString("%1 at MI 6, %2 at MI 10").arg(r.levels[2].mean).arg(r.levels[4].mean)));
    QVERIFY(std::abs(r.levels[4].mean - std::log(64.0)) < 0.1);
  }

 private:
  static double termValue(const RunResult& r, const QString& name) {
    for (const NamedValue& t : r.terms)
      if (t.name == name) return t.value;
    qFatal("no term %s", qPrintable(name));
  }
  RunResult onMarkovTask(const QString& method, const QVariantMap& extra) {
    QVariantMap flat{{"task", "gaussian2"}, {"dim", 4},  {"mi", 2.0},        {"method", method},
                     {"bits", 8},           {"seed", 1}, {"eval_pool", 2048}};
    flat.insert(extra);
    return train(registry_, flat);
  }
  // The exact entropy of a batch's aggregate posterior is capped at log(batch): a batch of 512 >= 2^8 leaves room
  // for H(Z) up to m log 2 (at 128 the estimate reads 1.15 instead of 1.39).
  const RunResult& bmmi() {
    if (bmmi_.status == RunStatus::Pending) bmmi_ = onMarkovTask("bmmi", {{"batch", 512}, {"steps", 1500}});
    return bmmi_;
  }
  RunResult onGaussian3(const QString& method) {
    return train(registry_, {{"task", "gaussian3"},
                             {"dim", 20},
                             {"mi", 10.0},
                             {"K", 128},
                             {"seed", 1},
                             {"method", method},
                             {"steps", kSteps},
                             {"lr", kLr}});
  }
  const RunResult& demi() {  // shared by two checks: the slowest run of the suite
    if (demi_.status == RunStatus::Pending) demi_ = onGaussian3("demi");
    return demi_;
  }

  RunResult demi_, bmmi_;
  static constexpr int kSteps = 4000;
  static constexpr double kLr = 1e-3;
  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestStatistical)
#include "test_statistical.moc"
