// The dialogue task (plugins/tasks/dialogue) and the sequence methods (plugins/sequence): the forward algorithm's
// p(y | x), p(y | x') and p(y) against brute-force enumeration of every hidden path and every context on a tiny
// setting (vocabulary 3, utterances of 2 tokens), the sampler's exact PMI and log p(y) through the task's interface,
// the Monte Carlo truths against the enumerated exact MI, the exact sampler of p(y | x') against its frequencies, the
// preset's setting against the targets, the methods kept apart from vector tasks, bad keys refused naming
// the key, and a trained DEMI reading at a fixed seed.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QtTest>
#include <cmath>
#include <vector>

#include "dialogue_law.h"
#include "dialogue_task_model.h"
#include "dialogue_truth.h"
#include "engine/device.h"
#include "engine/run.h"
#include "engine/run_spec.h"
#include "method/method_registry.h"
#include "next_utterance_retrieval.h"
#include "results/reading_words.h"
#include "tasks/task_catalog.h"
#include "tasks/task_sampler.h"

using namespace milab;
using namespace milab::dialogue;

namespace {

// The tiny setting: 2 topics, 2 turn states, k = 2 (x = u1 u2, x' = u2, y = u3), 3 words, 2 tokens an utterance.
DialogueSetting tinySetting() {
  DialogueSetting s;
  s.vocabulary = 3;
  s.length = 2;
  s.topics = 2;
  s.states = 2;
  s.context = 2;
  s.utterances = 3;
  s.strength = 0.7;
  s.lawSeed = 2;  // I(x;y) 0.175, I(x;y|x') 0.069 nats: both terms well above the Monte Carlo check's noise
  return s;
}

// Every joint probability p(u1, u2, u3) of the tiny setting by summing over every hidden path (t, s1, s2, s3), in
// plain double loops over the law's parameters: index (a, b, c) of utterances numbered w0 * 3 + w1.
std::vector<double> enumeratedJoint(const DialogueLaw& law) {
  const at::Tensor e = law.emission().contiguous(), start = law.turnStart(), a = law.turnTransition();
  const auto emit = [&](int t, int s, int u) { return e[t][s][u / 3].item<double>() * e[t][s][u % 3].item<double>(); };
  std::vector<double> joint(729, 0.0);
  for (int u1 = 0; u1 < 9; ++u1)
    for (int u2 = 0; u2 < 9; ++u2)
      for (int u3 = 0; u3 < 9; ++u3) {
        double p = 0;
        for (int t = 0; t < 2; ++t)
          for (int s1 = 0; s1 < 2; ++s1)
            for (int s2 = 0; s2 < 2; ++s2)
              for (int s3 = 0; s3 < 2; ++s3)
                p += 0.5 * start[s1].item<double>() * a[s1][s2].item<double>() * a[s2][s3].item<double>() *
                     emit(t, s1, u1) * emit(t, s2, u2) * emit(t, s3, u3);
        joint[size_t(u1 * 81 + u2 * 9 + u3)] = p;
      }
  return joint;
}

at::Tensor utterance(int u) { return at::tensor({int64_t(u / 3), int64_t(u % 3)}, at::kLong); }

}  // namespace

class TestDialogue : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  void forwardAlgorithmAgainstEnumeration() {
    const DialogueLaw law(tinySetting());
    const std::vector<double> joint = enumeratedJoint(law);
    double total = 0;
    for (double p : joint) total += p;
    QVERIFY(std::abs(total - 1) < 1e-12);
    double worst = 0;
    for (int u1 = 0; u1 < 9; ++u1)
      for (int u2 = 0; u2 < 9; ++u2) {
        const at::Tensor x = at::stack({utterance(u1), utterance(u2)});
        const at::Tensor givenX = law.nextStateGivenContext(x), givenXp = law.nextStateGivenLast(utterance(u2));
        double pX = 0, pXp = 0;
        for (int y = 0; y < 9; ++y) pX += joint[size_t(u1 * 81 + u2 * 9 + y)];
        for (int a = 0; a < 9; ++a)
          for (int y = 0; y < 9; ++y) pXp += joint[size_t(a * 81 + u2 * 9 + y)];
        for (int y = 0; y < 9; ++y) {
          double pXpY = 0, pY = 0;
          for (int a = 0; a < 9; ++a) pXpY += joint[size_t(a * 81 + u2 * 9 + y)];
          for (int a = 0; a < 81; ++a) pY += joint[size_t(a * 9 + y)];
          const double yx = std::log(joint[size_t(u1 * 81 + u2 * 9 + y)] / pX), yxp = std::log(pXpY / pXp);
          worst = std::max(worst, std::abs(law.predictiveLogProbability(givenX, utterance(y)).item<double>() - yx));
          worst = std::max(worst, std::abs(law.predictiveLogProbability(givenXp, utterance(y)).item<double>() - yxp));
          worst = std::max(
              worst, std::abs(law.predictiveLogProbability(law.nextStatePrior(), utterance(y)).item<double>() -
                              std::log(pY)));
        }
      }
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
  }

  // The task's interface as the methods and oracles read it: token ids as float columns, x' padded to x's width,
  // the score matrix broadcast over [B, 1, d] against [1, C, d].
  void theSamplersPmiIsTheEnumeratedLogRatio() {
    const DialogueTaskModel model(tinySetting());
    const std::unique_ptr<TaskSampler> sampler = model.sampler(c10::Device(c10::kCPU));
    const DialogueLaw law(tinySetting());
    const std::vector<double> joint = enumeratedJoint(law);
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(3);
    const Batch b = sampler->sampleJoint(5, gen);
    QCOMPARE(b.x.size(1), 4);
    QCOMPARE(b.xp.size(1), 4);
    QVERIFY(b.xp.narrow(1, 0, 2).eq(3).all().item<bool>());  // the padding id is the vocabulary's size
    QVERIFY(b.xp.narrow(1, 2, 2).equal(b.x.narrow(1, 2, 2)));
    const at::Tensor scores = sampler->pmi(b.x.unsqueeze(1), b.xp.unsqueeze(1), b.y.unsqueeze(0));
    const at::Tensor subview = sampler->subviewPmi(b.xp.unsqueeze(1), b.y.unsqueeze(0));
    const at::Tensor logY = sampler->logMarginalY(b.y);
    QCOMPARE(scores.sizes(), (at::IntArrayRef{5, 5}));
    const auto id = [](const at::Tensor& row, int first) {
      return int(row[first].item<float>()) * 3 + int(row[first + 1].item<float>());
    };
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) {
        const int u1 = id(b.x[i], 0), u2 = id(b.x[i], 2), y = id(b.y[j], 0);
        double pX = 0, pXpY = 0, pXp = 0, pY = 0;
        for (int c = 0; c < 9; ++c) pX += joint[size_t(u1 * 81 + u2 * 9 + c)];
        for (int a = 0; a < 9; ++a) {
          pXpY += joint[size_t(a * 81 + u2 * 9 + y)];
          for (int c = 0; c < 9; ++c) pXp += joint[size_t(a * 81 + u2 * 9 + c)];
        }
        for (int a = 0; a < 81; ++a) pY += joint[size_t(a * 9 + y)];
        const double pmi = std::log(joint[size_t(u1 * 81 + u2 * 9 + y)] / pX / pY);
        QVERIFY(std::abs(scores[i][j].item<double>() - pmi) < 1e-12);
        QVERIFY(std::abs(subview[i][j].item<double>() - std::log(pXpY / pXp / pY)) < 1e-12);
        if (i == 0) QVERIFY(std::abs(logY[j].item<double>() - std::log(pY)) < 1e-12);
      }
  }

  // The Monte Carlo truths against the exact MIs by enumeration: within 4 standard errors each, and the chain rule
  // exact draw by draw.
  void monteCarloTruthsMatchTheEnumeratedMi() {
    const DialogueLaw law(tinySetting());
    const std::vector<double> joint = enumeratedJoint(law);
    std::vector<double> pXY(81 * 9, 0.0), pX(81, 0.0), pXpY(81, 0.0), pXp(9, 0.0), pY(9, 0.0);
    for (int a = 0; a < 81; ++a)
      for (int y = 0; y < 9; ++y) {
        const double p = joint[size_t(a * 9 + y)];
        pXY[size_t(a * 9 + y)] = p;
        pX[size_t(a)] += p;
        pXpY[size_t((a % 9) * 9 + y)] += p;
        pXp[size_t(a % 9)] += p;
        pY[size_t(y)] += p;
      }
    double total = 0, subview = 0;
    for (int a = 0; a < 81; ++a)
      for (int y = 0; y < 9; ++y) {
        const double p = pXY[size_t(a * 9 + y)];
        total += p * std::log(p / pX[size_t(a)] / pY[size_t(y)]);
        subview += p * std::log(pXpY[size_t((a % 9) * 9 + y)] / pXp[size_t(a % 9)] / pY[size_t(y)]);
      }
    const DialogueTruths mc = monteCarloTruths(law, 100000, 7);
    const QString what = QStringLiteral("exact %1 %2, Monte Carlo %3 +- %4, %5 +- %6")
                             .arg(total)
                             .arg(subview)
                             .arg(mc.total.mean)
                             .arg(mc.total.standardError)
                             .arg(mc.subview.mean)
                             .arg(mc.subview.standardError);
    QVERIFY2(std::abs(mc.total.mean - total) < 4 * mc.total.standardError, qPrintable(what));
    QVERIFY2(std::abs(mc.subview.mean - subview) < 4 * mc.subview.standardError, qPrintable(what));
    QVERIFY2(std::abs(mc.conditional.mean - (total - subview)) < 4 * mc.conditional.standardError, qPrintable(what));
    QVERIFY(std::abs(mc.total.mean - mc.subview.mean - mc.conditional.mean) < 1e-9);
    QVERIFY2(total - subview > 0.01, qPrintable(what));  // the tiny setting has a conditional term to check
  }

  // p(y | x') drawn exactly: each of the 9 futures' share of 20,000 draws given one x' within 4.5 binomial standard
  // deviations of its enumerated probability.
  void theConditionalSamplerDrawsTheTrueLaw() {
    const DialogueTaskModel model(tinySetting());
    const std::unique_ptr<TaskSampler> sampler = model.sampler(c10::Device(c10::kCPU));
    const DialogueLaw law(tinySetting());
    const std::vector<double> joint = enumeratedJoint(law);
    const int u2 = 5;  // x' = (1, 2)
    const at::Tensor xp = at::tensor({3.0f, 3.0f, 1.0f, 2.0f}).reshape({1, 4});
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(11);
    constexpr int kDraws = 20000;
    const at::Tensor ys = sampler->sampleYGivenXp(xp, kDraws, gen);
    QCOMPARE(ys.sizes(), (at::IntArrayRef{1, kDraws, 2}));
    const at::Tensor ids = (ys[0].select(1, 0) * 3 + ys[0].select(1, 1)).to(at::kLong);
    const at::Tensor counts = at::bincount(ids, {}, 9);
    double pXp = 0;
    for (int a = 0; a < 9; ++a)
      for (int y = 0; y < 9; ++y) pXp += joint[size_t(a * 81 + u2 * 9 + y)];
    for (int y = 0; y < 9; ++y) {
      double p = 0;
      for (int a = 0; a < 9; ++a) p += joint[size_t(a * 81 + u2 * 9 + y)];
      p /= pXp;
      const double band = 4.5 * std::sqrt(p * (1 - p) / kDraws);
      const double share = counts[y].item<double>() / kDraws;
      QVERIFY2(std::abs(share - p) < band, qPrintable(QStringLiteral("y %1: %2 against %3").arg(y).arg(share).arg(p)));
    }
  }

  // The preset's setting (resources/experiments/dialogue-demi.json, the task's defaults): standard errors below
  // 0.003 nats and a conditional term of at least a third of I(x; y).
  void thePresetsSettingMeetsItsTargets() {
    const DialogueTruths t = cachedTruths(DialogueLaw(presetSetting()));
    QVERIFY2(t.total.standardError < 0.003 && t.conditional.standardError < 0.003 && t.subview.standardError < 0.003,
             qPrintable(QString::number(t.total.standardError)));
    QVERIFY2(t.conditional.mean >= t.total.mean / 3,
             qPrintable(QStringLiteral("%1 of %2").arg(t.conditional.mean).arg(t.total.mean)));
  }

  void tokensAndVectorsAreKeptApart() {
    const auto refusal = [&](const QString& task, const QString& method) {
      RunSpec s;
      QString err = runSpecFromFlat({{"task", task}, {"method", method}}, registry_, &s);
      return err.isEmpty() ? validateRunSpec(&s, registry_) : err;
    };
    QVERIFY(refusal("hmm-dialogue", "infonce").contains("yields token sequences"));
    QVERIFY(refusal("gaussian2", "demi-text").contains("reads token sequences with a sequence encoder"));
    QCOMPARE(refusal("hmm-dialogue", "demi-text"), QString());
  }

  void badKeysAreRefusedNamingTheKey() {
    const auto refusal = [&](const QVariantMap& taskKeys) {
      QVariantMap flat{{"task", "hmm-dialogue"}, {"method", "demi-text"}};
      flat.insert(taskKeys);
      RunSpec s;
      QString err = runSpecFromFlat(flat, registry_, &s);
      if (err.isEmpty()) err = validateRunSpec(&s, registry_);
      return err;
    };
    QVERIFY(refusal({{"context", 4}, {"utterances", 4}}).contains("context: k = 4 must be in [1, utterances - 1]"));
    QVERIFY(refusal({{"context", 0}}).contains("context"));
    QVERIFY(refusal({{"vocabulary", 1}}).contains("vocabulary"));
    QVERIFY(refusal({{"turn_states", 1}}).contains("turn_states"));
    QVERIFY(refusal({{"utterance_length", 0}}).contains("utterance_length"));
    QCOMPARE(refusal({{"context", 3}, {"utterances", 4}}), QString());
    // A finite sample set standardises its columns (and the lab's recipe transforms them): token ids would name no
    // token, so the methods of tokens train on fresh dialogues only.
    // demi-text, which a finite set would also deny its p(y|x'), hears the same reason, not that the task lacks it.
    for (const char* method : {"infonce-text", "demi-text"}) {
      RunSpec finiteSet;
      const QString finite = runSpecFromFlat(
          {{"task", "hmm-dialogue"}, {"method", method}, {"samples", 2000}}, registry_, &finiteSet);
      QVERIFY2(finite.startsWith(QStringLiteral("samples: method %1 reads token ids").arg(method)), qPrintable(finite));
    }
  }

  // demi-text-bo (the fastest DEMI to train: in-batch negatives) at the defaults (I(x;y) 0.5709 +- 0.0015), seed 1,
  // 1,500 steps: the reading, I_NCE(x';y) + I_CNCE(x;y|x') against the true p(y|x'), is a lower bound that has
  // learned: between half the truth and the truth plus three of its standard errors, and each term positive.
  void aTrainedDemiReadsTheDefaultSetting() {
    const RunResult r = trained("demi-text-bo", 1500, 1);
    const QString what = QStringLiteral("%1 +- %2 of %3").arg(r.estimate).arg(r.stderror).arg(r.trueMi);
    QVERIFY2(r.estimate > r.trueMi / 2 && r.estimate < r.trueMi + 3 * r.stderror, qPrintable(what));
    QCOMPARE(r.terms.size(), 2);
    for (const Term& t : r.terms) QVERIFY2(t.value > 0, qPrintable(t.name));
    // Its critic retrieves the next utterance among 10 above chance (0.1), and no better than the exact PMI, which
    // no critic can beat in expectation (2,000 dialogues: a share's noise is about 0.01). Futures of the same last
    // utterance are harder to tell from the true one than random futures, for the exact PMI too.
    const double random = readingValue(r.readings, "retrieval_random");
    const double conditional = readingValue(r.readings, "retrieval_conditional");
    const double randomExact = readingValue(r.readings, "retrieval_random_exact");
    const double conditionalExact = readingValue(r.readings, "retrieval_conditional_exact");
    const QString shares =
        QStringLiteral("%1 %2 exact %3 %4").arg(random).arg(conditional).arg(randomExact).arg(conditionalExact);
    QVERIFY2(random > 0.15 && conditional > 0.12, qPrintable(shares));
    QVERIFY2(random < randomExact + 0.03 && conditional < conditionalExact + 0.03, qPrintable(shares));
    QVERIFY2(conditionalExact < randomExact, qPrintable(shares));
  }

  // A row retrieves its true candidate (column 0) only when it scores strictly above every other: a tie is a miss.
  void retrievalCountsStrictWins() {
    const at::Tensor scores = at::tensor({3.0, 1.0, 2.0, 1.0, 1.0, 0.0, 0.0, 2.0, 1.0}).reshape({3, 3});
    QCOMPARE(retrievedShare(scores), 1.0 / 3.0);
  }

  // The conformance suite's promises for the four methods of tokens, on the dialogue task: a finite reading below
  // the truth and the ceiling, and the same seed gives the same result.
  void sameSeedSameResult_data() {
    QTest::addColumn<QString>("method");
    for (const char* m : {"infonce-text", "demi-text", "demi-text-bo", "demi-text-var"}) QTest::newRow(m) << QString(m);
  }
  void sameSeedSameResult() {
    QFETCH(QString, method);
    const RunResult a = trained(method, 30, 4), b = trained(method, 30, 4);
    QVERIFY(std::isfinite(a.estimate));
    QCOMPARE(a.estimate, b.estimate);
    QVERIFY(a.estimate < a.trueMi);
    QVERIFY(!a.ceilings.isEmpty() && a.estimate < a.ceilings.front().value);
  }

 private:
  // The preset runs the task at its defaults.
  static DialogueSetting presetSetting() { return {}; }

  RunResult trained(const QString& method, int steps, int seed) {
    const QVariantMap flat{{"task", "hmm-dialogue"}, {"method", method}, {"steps", steps},
                           {"seed", seed},           {"device", "cpu"},  {"lr", 0.003}};
    RunSpec s;
    const QString err = runSpecFromFlat(flat, registry_, &s);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    Run run(s, registry_.find(method));
    const RunResult r = runToCompletion(run);
    if (r.status != RunStatus::Finished) qFatal("%s did not finish", qPrintable(method));
    return r;
  }

  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestDialogue)
#include "test_dialogue.moc"
