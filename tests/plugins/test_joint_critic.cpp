// The joint critic (nn/joint_critic.h, issue 45): its scores are the MLP on every pair [x_i, y_j], written here as a
// double loop in double precision, and its split first layer gives the naive concatenation's gradients; each
// score-matrix bound read with it is its formula on those scores; its settings are checked (layers: whole widths, one
// to eight of them) and its memory guarded.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <QtTest>
#include <cmath>
#include <functional>
#include <vector>

#include "engine/device.h"
#include "engine/run_spec.h"
#include "method/estimator.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "nn/joint_critic.h"
#include "nn/separable_critic.h"
#include "tasks/task_catalog.h"
#include "tasks/task_sampler.h"

using namespace milab;

namespace {

// T([x, y]) for one pair, layer by layer in double: the first layer's weight is [Wx | Wy].
double pairByHand(const std::vector<at::Tensor>& p, const at::Tensor& x, const at::Tensor& y) {
  const at::Tensor h = at::cat({x, y}).to(at::kDouble);
  const at::Tensor w1 = at::cat({p[0], p[1]}, 1).to(at::kDouble);
  at::Tensor a = w1.matmul(h) + p[2].to(at::kDouble);
  for (size_t i = 3; i + 1 < p.size(); i += 2) a = p[i].to(at::kDouble).matmul(a.relu()) + p[i + 1].to(at::kDouble);
  return a.item<double>();
}

double infonceByHand(const at::Tensor& s) {  // mean_i [s_ii - log sum_j e^{s_ij}] + log B
  const int64_t b = s.size(0);
  double sum = 0;
  for (int64_t i = 0; i < b; ++i) {
    double z = 0;
    for (int64_t j = 0; j < b; ++j) z += std::exp(s[i][j].item<double>());
    sum += s[i][i].item<double>() - std::log(z);
  }
  return sum / b + std::log(double(b));
}

double nwjByHand(const at::Tensor& s) {  // E_joint[s] - e^{-1} E_marginals[e^s], off-diagonal pairs
  const int64_t b = s.size(0);
  double joint = 0, marginal = 0;
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < b; ++j)
      (i == j ? joint : marginal) += i == j ? s[i][j].item<double>() : std::exp(s[i][j].item<double>() - 1);
  return joint / b - marginal / (b * (b - 1));
}

double dvByHand(const at::Tensor& s) {  // E_joint[s] - log E_marginals[e^s]
  const int64_t b = s.size(0);
  double joint = 0, marginal = 0;
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < b; ++j)
      (i == j ? joint : marginal) += i == j ? s[i][j].item<double>() : std::exp(s[i][j].item<double>());
  return joint / b - std::log(marginal / (b * (b - 1)));
}

}  // namespace

class TestJointCritic : public QObject {
  Q_OBJECT
  MethodRegistry registry_;

  RunSpec spec(const QString& method, const QVariantMap& extra, QString* err) {
    QVariantMap flat{{"task", "gaussian2"}, {"dim", 2},        {"mi", 1.0},   {"method", method}, {"K", 8},
                     {"critic", "joint"},   {"layers", "5,3"}, {"steps", 10}, {"device", "cpu"}};
    for (auto it = extra.cbegin(); it != extra.cend(); ++it) flat.insert(it.key(), it.value());
    RunSpec s;
    *err = runSpecFromFlat(flat, registry_, &s);
    return s;
  }

  // The method's estimator with the joint critic on gaussian2, its networks drawn from a generator seeded `seed`.
  struct Setup {
    std::unique_ptr<TaskModel> model;
    std::unique_ptr<TaskSampler> sampler;
    std::unique_ptr<Estimator> estimator;  // null when the spec is refused (error says why)
    QString error;
  };
  Setup setup(const QString& method, uint64_t seed, const QVariantMap& extra = {}) {
    Setup m;
    const RunSpec s = spec(method, extra, &m.error);
    if (!m.error.isEmpty()) return m;
    m.model = buildTask(s.task, s.taskParams, 1);
    m.sampler = m.model->sampler(c10::Device(c10::kCPU));
    EstimatorContext context;
    context.task = m.sampler.get();
    context.generator = context.noise = at::make_generator<at::CPUGeneratorImpl>(seed);
    context.params = s.methodParams;
    m.estimator = registry_.find(method)->create(context);
    return m;
  }

 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  void scoresAreTheMlpOnEveryPair() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(3);
    JointCritic critic(2, 3, {5, 4}, 1e-3, c10::Device(c10::kCPU), gen);
    const std::vector<at::Tensor>& p = critic.parameters();
    QCOMPARE(p.size(), size_t(7));  // Wx, Wy, b1, W2, b2, W3, b3
    const at::Tensor xs = at::randn({4, 2}, gen), ys = at::randn({6, 3}, gen);
    const at::Tensor s = critic.scores(xs, ys);
    QCOMPARE(s.sizes().vec(), (std::vector<int64_t>{4, 6}));
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j) {
        const double byHand = pairByHand(p, xs[i], ys[j]);
        QVERIFY2(std::abs(s[i][j].item<double>() - byHand) < 1e-5,
                 qPrintable(
                     QStringLiteral("(%1, %2): %3 against %4").arg(i).arg(j).arg(s[i][j].item<double>()).arg(byHand)));
      }
    const at::Tensor diagonal = critic.pairScores(xs, ys.narrow(0, 0, 4));
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(diagonal[i].item<double>() - s[i][i].item<double>()) < 1e-6);
  }

  // The split first layer (one pass per side and a broadcast sum, issue 49) against the naive MLP on every
  // concatenated pair [x_i, y_j], in double with autograd: the scores and every parameter's gradient of a loss that
  // weighs each score differently agree to float tolerance.
  void splitFirstLayerMatchesTheConcatenationWithGradients() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(17);
    JointCritic critic(3, 2, {6, 4}, 1e-3, c10::Device(c10::kCPU), gen);
    const int64_t b = 5, m = 7;
    const at::Tensor xs = at::randn({b, 3}, gen), ys = at::randn({m, 2}, gen);
    const at::Tensor weights = at::randn({b, m}, gen);
    for (const at::Tensor& t : critic.parameters()) t.mutable_grad() = at::Tensor();
    const at::Tensor scores = critic.scores(xs, ys);
    (scores * weights).sum().backward();

    std::vector<at::Tensor> p;  // the same parameters in double, as leaves of their own graph
    for (const at::Tensor& t : critic.parameters()) p.push_back(t.detach().to(at::kDouble).requires_grad_());
    const at::Tensor pairs =
        at::cat({xs.to(at::kDouble).unsqueeze(1).expand({b, m, 3}), ys.to(at::kDouble).unsqueeze(0).expand({b, m, 2})},
                2)
            .reshape({b * m, 5});
    at::Tensor h = at::linear(pairs, at::cat({p[0], p[1]}, 1), p[2]);
    for (size_t i = 3; i + 1 < p.size(); i += 2) h = at::linear(h.relu(), p[i], p[i + 1]);
    const at::Tensor naive = h.reshape({b, m});
    (naive * weights.to(at::kDouble)).sum().backward();

    QVERIFY(at::allclose(scores.detach().to(at::kDouble), naive.detach(), 1e-5, 1e-5));
    for (size_t k = 0; k < p.size(); ++k) {
      const at::Tensor mine = critic.parameters()[k].grad();
      QVERIFY2(mine.defined(), qPrintable(QStringLiteral("no gradient for parameter %1").arg(k)));
      const double gap = (mine.to(at::kDouble) - p[k].grad()).abs().max().item<double>();
      QVERIFY2(gap < 1e-4 * (1 + p[k].grad().abs().max().item<double>()),
               qPrintable(QStringLiteral("parameter %1: gradients differ by %2").arg(k).arg(gap)));
    }
  }

  // A step changes the critic (the gradient reaches every layer), and the scores move with it.
  void aStepTrainsEveryLayer() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(5);
    JointCritic critic(1, 1, {4, 3}, 1e-2, c10::Device(c10::kCPU), gen);
    std::vector<at::Tensor> before;
    for (const at::Tensor& t : critic.parameters()) before.push_back(t.detach().clone());
    const at::Tensor xs = at::randn({8, 1}, gen);
    critic.minimise(-critic.scores(xs, xs).diagonal().mean());
    for (size_t k = 0; k < before.size(); ++k)
      QVERIFY2(!at::equal(before[k], critic.parameters()[k].detach()), qPrintable(QString::number(k)));
  }

  // Each score-matrix bound read with the joint critic is its formula on the critic's scores: the estimator's
  // critic is rebuilt here from the same generator (the estimator's first draws are its critic's).
  void eachBoundIsItsFormulaOnTheJointScores_data() {
    QTest::addColumn<QString>("method");
    QTest::newRow("infonce") << "infonce";
    QTest::newRow("nwj") << "nwj";
    QTest::newRow("mine") << "mine";
  }

  void eachBoundIsItsFormulaOnTheJointScores() {
    QFETCH(QString, method);
    Setup m = setup(method, 11);
    QVERIFY2(m.estimator, qPrintable(m.error));
    TaskSampler* sampler = m.sampler.get();
    Estimator* estimator = m.estimator.get();
    at::Generator twin = at::make_generator<at::CPUGeneratorImpl>(11);
    JointCritic same(2, 2, {5, 3}, 1e-3, c10::Device(c10::kCPU), twin);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(17);
    const Batch batch = sampler->sampleJoint(8, data);
    const at::Tensor scores = same.scores(batch.x, batch.y).to(at::kDouble);
    const double formula = method == "infonce" ? infonceByHand(scores)
                           : method == "nwj"   ? nwjByHand(scores)
                                               : dvByHand(scores);
    const double read = estimator->evaluate(batch).value;
    QVERIFY2(std::abs(read - formula) < 1e-4,
             qPrintable(QStringLiteral("%1 read %2, formula %3").arg(method).arg(read).arg(formula)));
  }

  // held_out = whole (bmi's reading): InfoNCE on the N x N scores of the whole part, log N its cap; NWJ and DV
  // (MINE at momentum 0) on every off-diagonal pair, bmi's _backend_linear_memory; MINE with its moving average on the
  // N joint pairs and one permutation of the ys, drawn from the estimator's generator after its critic (bmi's MINE).
  // Against the double transcriptions above at 1e-6: the estimator sums the float scores in double.
  void wholeReadingIsItsFormula_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<double>("momentum");
    QTest::newRow("infonce") << "infonce" << -1.0;
    QTest::newRow("nwj: every pair") << "nwj" << -1.0;
    QTest::newRow("dv (mine, momentum 0): every pair") << "mine" << 0.0;
    QTest::newRow("mine (momentum 0.9): one permutation") << "mine" << 0.9;
    QTest::newRow("nwj, separable critic: every pair") << "nwj" << -2.0;
  }

  void wholeReadingIsItsFormula() {
    QFETCH(QString, method);
    QFETCH(double, momentum);
    const bool separable = momentum == -2.0;  // the DEMI paper's f(x) . g(y), 7 hidden units, 5 embedded
    const QVariantMap extra = separable      ? QVariantMap{{"critic", "learned"}, {"hidden", 7}, {"embed", 5}}
                              : momentum >= 0 ? QVariantMap{{"momentum", momentum}}
                                              : QVariantMap{};
    Setup m = setup(method, 11, extra);
    QVERIFY2(m.estimator, qPrintable(m.error));
    at::Generator twin = at::make_generator<at::CPUGeneratorImpl>(11);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(19);
    const int64_t n = 40;  // not the training K (8): the whole part's own size
    const Batch part = m.sampler->sampleJoint(n, data);
    at::Tensor scores;
    if (separable) {
      SeparableCritic same(2, 2, 7, 5, 1e-3, c10::Device(c10::kCPU), twin);
      scores = same.scores(part.x, part.y).detach().to(at::kDouble);
    } else {
      JointCritic same(2, 2, {5, 3}, 1e-3, c10::Device(c10::kCPU), twin);
      scores = same.scores(part.x, part.y).detach().to(at::kDouble);
    }
    double formula = method == "infonce" ? infonceByHand(scores) : method == "nwj" ? nwjByHand(scores) : dvByHand(scores);
    if (momentum > 0) {
      const at::Tensor perm = at::randperm(n, twin, at::kLong);
      double joint = 0, marginal = 0;
      for (int64_t i = 0; i < n; ++i) {
        joint += scores[i][i].item<double>() / n;
        marginal += std::exp(scores[i][perm[i].item<int64_t>()].item<double>()) / n;
      }
      formula = joint - std::log(marginal);
    }
    const double read = m.estimator->evaluateWhole(part).value;
    const double tolerance = method == "infonce" || momentum > 0 ? 1e-4 : 1e-6;  // float sums there, double here
    QVERIFY2(std::abs(read - formula) < tolerance,
             qPrintable(QStringLiteral("%1 read %2, formula %3").arg(method).arg(read, 0, 'g', 10).arg(formula, 0, 'g', 10)));
  }

  // A large reading without gradients goes through the MLP in blocks of rows: the same scores as in one piece.
  void blockedScoresAreTheSame() {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(23);
    JointCritic critic(3, 2, {5, 3}, 1e-3, c10::Device(c10::kCPU), gen);
    const at::Tensor xs = at::randn({1900, 3}, gen), ys = at::randn({1900, 2}, gen);  // 18M activations > 2^24
    const at::Tensor whole = critic.scores(xs, ys).detach();                          // gradients on: one piece
    at::Tensor blocked;
    {
      c10::NoGradGuard noGrad;
      blocked = critic.scores(xs, ys);
    }
    QVERIFY(at::allclose(whole, blocked, 1e-5, 1e-6));
  }

  // Every method that offers the joint critic trains with it: a few steps, then a finite reading.
  void everyJointMethodTrains_data() {
    QTest::addColumn<QString>("method");
    for (const char* m : {"infonce", "nwj", "mine", "js", "smile", "local-nce", "tuba", "interpolated"})
      QTest::newRow(m) << m;
  }

  void everyJointMethodTrains() {
    QFETCH(QString, method);
    Setup m = setup(method, 3);
    QVERIFY2(m.estimator, qPrintable(m.error));
    TaskSampler* sampler = m.sampler.get();
    Estimator* estimator = m.estimator.get();
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(5);
    for (int i = 0; i < 3; ++i) estimator->trainStep(sampler->sampleJoint(estimator->batchSize(), data));
    const double read = estimator->evaluate(sampler->sampleJoint(estimator->batchSize(), data)).value;
    QVERIFY2(std::isfinite(read), qPrintable(QString::number(read)));
  }

  // layers: whole widths, one to eight, each in [1, 4096]; one line naming the key. The B x B pairs are guarded.
  void badLayersAreRefusedNamingTheKey() {
    for (const char* bad : {"", "0", "1.5", "5000", "1,2,3,4,5,6,7,8,9", "16,x"}) {
      QString err;
      spec("infonce", {{"layers", bad}}, &err);
      QVERIFY2(err.startsWith("layers: "), qPrintable(QStringLiteral("'%1' -> %2").arg(bad, err)));
    }
    QString err;
    spec("nwj", {{"K", 65536}, {"layers", "4096,4096"}}, &err);
    QVERIFY2(err.startsWith("K: ") && err.contains("joint critic"), qPrintable(err));
    spec("demi", {{"task", "gaussian3"}}, &err);  // DEMI's family has no joint critic to offer
    QVERIFY2(err.startsWith("critic: ") || err.startsWith("layers: "), qPrintable(err));
  }
};

QTEST_MAIN(TestJointCritic)
#include "test_joint_critic.moc"
