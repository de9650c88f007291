// lmi (plugins/lmi): its reading of latents is the lab's KSG method's reading of them, and of the raw columns what KSG
// reads (the identity as encoder); the autoencoders' loss against a transcription in double; a trained reading near
// the truth where KSG can read the latents, and an interval that holds 0 on independent data; bmi's recipe leaves its
// optimiser alone; refusals name their key.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <QtTest>
#include <cmath>

#include "cross_autoencoders.h"
#include "engine/device.h"
#include "engine/recipe_options.h"
#include "engine/run.h"
#include "fresh_estimator.h"
#include "lmi_estimator.h"
#include "method/method_registry.h"
#include "results/reading_words.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

RunSpec lmiSpec(double mi, int dim, qint64 samples, const ParamMap& methodParams) {
  RunSpec s;
  s.task = "gaussian2";
  s.taskParams = {{"dim", dim}, {"mi", mi}};
  s.method = "lmi";
  s.methodParams = methodParams;
  s.samples = samples;
  s.seed = 1;
  s.device = "cpu";
  return s;
}

// A chain's forward written out: x W^T + b per layer, LeakyReLU(0.2) as max(h, 0.2 h) between layers (and after the
// last for an encoder).
at::Tensor chainByHand(LeakyChain& chain, at::Tensor h) {
  for (size_t i = 0; i < chain->layers.size(); ++i) {
    h = at::matmul(h, chain->layers[i]->weight.t()) + chain->layers[i]->bias;
    if (i + 1 < chain->layers.size() || chain->activateOutput) h = at::maximum(h, 0.2 * h);
  }
  return h;
}

double meanSquare(const at::Tensor& a, const at::Tensor& b) {
  return (a - b).pow(2).sum().item<double>() / double(a.numel());
}

}  // namespace

class TestLmi : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    QVERIFY(registry_.find("lmi"));
  }

  // On 600 rows of gaussian2 d 3: LMI's reading of its latents equals what the ksg method reads on those latents as
  // its x and y, and its reading of the raw columns (the identity as encoder) what ksg reads on them; the two break
  // ties with different draws, which move a reading by ~1e-9 nats.
  void readsLatentsAsTheKsgMethodDoes() {
    FreshEstimator f = freshEstimator(registry_, "lmi", {}, 3);
    auto* lmi = dynamic_cast<LmiEstimator*>(f.estimator.get());
    QVERIFY(lmi);
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(21);
    const Batch rows = f.sampler->sampleJoint(600, data);
    ParamMap ksgParams{{"k", 3}};
    QCOMPARE(validateParamMap(registry_.find("ksg")->info().params, &ksgParams, "ksg"), QString());
    EstimatorContext context;
    context.task = f.sampler.get();
    context.generator = at::make_generator<at::CPUGeneratorImpl>(31);
    context.noise = context.generator;
    context.params = ksgParams;
    const std::unique_ptr<Estimator> ksg = registry_.find("ksg")->create(context);
    const CrossAutoencodersImpl::Latents z = lmi->latents(rows);
    QCOMPARE(z.zx.size(1), 3);  // latent 8 narrowed to the side's 3 columns
    const double lmiOfLatents = lmi->evaluate(rows).value;
    const double ksgOfLatents = ksg->evaluate(Batch{z.zx, {}, z.zy}).value;
    QVERIFY2(std::abs(lmiOfLatents - ksgOfLatents) < 1e-6,
             qPrintable(QStringLiteral("%1 vs %2").arg(lmiOfLatents).arg(ksgOfLatents)));
    const double identity = lmi->readLatents(rows.x, rows.y), ksgOfColumns = ksg->evaluate(rows).value;
    QVERIFY2(std::abs(identity - ksgOfColumns) < 1e-6,
             qPrintable(QStringLiteral("%1 vs %2").arg(identity).arg(ksgOfColumns)));
    QVERIFY(std::abs(ksgOfColumns - 1.0) < 0.2);  // and that reading is of the task (MI 1)
    // Latents with ties (three rows, each 200 times, as an encoder that maps a table's repeated rows alike gives) read
    // about log 3, as the ksg method reads them (knn/ksg_rows.h), not the several nats of unbroken ties.
    const at::Tensor three = rows.x.narrow(0, 0, 3).repeat({200, 1}), threeY = rows.y.narrow(0, 0, 3).repeat({200, 1});
    const double tied = lmi->readLatents(three, threeY);
    QVERIFY2(std::abs(tied - std::log(3.0)) < 0.1, qPrintable(QString::number(tied)));
  }

  // The training curve's stand-in, the Gaussian MI of the latents' correlations, read on 100,000 exact rows of
  // gaussian2 d 3, MI 1 as if they were latents: the truth within 0.02 (its sampling error is about 0.004); a factor
  // off, or the joint determinant's sign, misses by far more.
  void stepReadingIsTheGaussianMiOfTheLatents() {
    const std::unique_ptr<TaskModel> model = buildTask("gaussian2", {{"dim", 3}, {"mi", 1.0}}, 1);
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(4);
    const Batch b = model->sampler(c10::Device(c10::kCPU))->sampleJoint(100000, gen);
    const double read = gaussianMiOfLatents(b.x.to(at::kDouble), b.y.to(at::kDouble)).item<double>();
    QVERIFY2(std::abs(read - 1.0) < 0.02, qPrintable(QString::number(read)));
  }

  // A fresh estimator's held-out loss (no dropout) on the 64-row batch, against the six networks rebuilt from its seed
  // and run by hand in double: cross_weight (|x - dec_yx(z_y)|^2 + |y - dec_xy(z_x)|^2) + self_weight (|x -
  // dec_xx(z_x)|^2 + |y - dec_yy(z_y)|^2), each a mean over rows and columns, with the weights off their defaults.
  void lossMatchesATranscription() {
    FreshEstimator f =
        freshEstimator(registry_, "lmi", {{"cross_weight", 0.7}, {"self_weight", 1.9}, {"latent", 2}}, 3);
    const LmiOptions o = lmiOptions(f.params);
    CrossAutoencoders net(3, 3, 2, 2, o.hidden, f.networkSeed);
    net->to(at::kDouble);
    c10::NoGradGuard noGrad;
    const at::Tensor x = f.batch.x.to(at::kDouble), y = f.batch.y.to(at::kDouble);
    const at::Tensor zx = chainByHand(net->encoderX, x), zy = chainByHand(net->encoderY, y);
    const double loss =
        0.7 * (meanSquare(chainByHand(net->decoderYX, zy), x) + meanSquare(chainByHand(net->decoderXY, zx), y)) +
        1.9 * (meanSquare(chainByHand(net->decoderXX, zx), x) + meanSquare(chainByHand(net->decoderYY, zy), y));
    QVERIFY2(std::abs(f.first.loss - loss) < 1e-5 * loss,
             qPrintable(QStringLiteral("%1 vs %2").arg(f.first.loss).arg(loss)));
  }

  // Trained on 2,000 rows of gaussian2 d 1, MI 1 under the lab's recipe (seed 1; lr 1e-3 and hidden 64 to train in
  // seconds), where KSG reads the one-column latents well, its reading is within 10% of the truth; on independent rows
  // (d 2) its interval holds 0.
  void trainedReadsTheTruthAndZero() {
    const RunResult r = finiteRun(1.0, 1);
    qInfo("lmi on gaussian2 d 1, MI 1: %.3f", r.estimate);
    QCOMPARE(r.status, RunStatus::Finished);
    QVERIFY(std::abs(r.estimate - 1.0) < 0.1);
    const RunResult n = finiteRun(1e-9, 2);
    const double low = readingValue(n.readings, "ci_low"), high = readingValue(n.readings, "ci_high");
    qInfo("lmi on independent rows: %.3f [%.3f, %.3f]", n.estimate, low, high);
    QCOMPARE(n.status, RunStatus::Finished);
    QVERIFY(low <= 0 && high >= 0);
  }

  // bmi's recipe gives a critic its lr, layers and critic; LMI keeps its own optimiser and still reads the whole
  // held-out part.
  void recipeLeavesItsOptimiserAlone() {
    QVariantMap flat{{"recipe", "bmi"}};
    applyRecipe(*findTask("gaussian2"), registry_.find("lmi")->info(), &flat);
    QVERIFY(!flat.contains("lr"));
    QVERIFY(!flat.contains("layers"));
    QCOMPARE(flat.value("held_out").toString(), QString("whole"));
    QCOMPARE(flat.value("samples").toInt(), 5000);
  }

  void badInputNamesTheKey() {
    RunSpec s = lmiSpec(2.0, 5, 0, {{"latent", 9}});
    QCOMPARE(validateRunSpec(&s, registry_),
             QString("latent: must be an integer in [1, 5] on this task (x has 5 columns, y 5), got 9"));
    s = lmiSpec(2.0, 5, 0, {{"latent", 0}});
    QCOMPARE(validateRunSpec(&s, registry_),
             QString("latent: must be an integer in [1, 4096] or null (automatic), got 0"));
    s = lmiSpec(2.0, 5, 0, {{"hidden", 3}});
    QCOMPARE(validateRunSpec(&s, registry_), QString("hidden: must be an integer in [4, 4096], got 3"));
  }

 private:
  RunResult finiteRun(double mi, int dim) {
    const QVariantMap flat{{"task", "gaussian2"}, {"dim", dim},      {"mi", mi},   {"method", "lmi"}, {"samples", 2000},
                           {"seed", 1},           {"device", "cpu"}, {"lr", 1e-3}, {"hidden", 64}};
    RunSpec s;
    const QString error = runSpecFromFlat(flat, registry_, &s);
    if (!error.isEmpty()) qFatal("%s", qPrintable(error));
    Run run(s, registry_.find("lmi"));
    return runToCompletion(run);
  }

  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestLmi)
#include "test_lmi.moc"
