// FlatAdam, milab's one optimiser, against torch::optim::Adam: the same parameters, values and gradients step for
// step, to the bit (it is the same arithmetic, over one buffer instead of a loop), with the parameters still the
// modules' own (a forward pass reads the updated values) and gradients accumulating in place into the flat buffer.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/optim/adam.h>

#include <QtTest>

#include "engine/device.h"
#include "nn/adam_rows.h"
#include "nn/flat_adam.h"
#include "nn/mlp.h"

using namespace milab;

namespace {

// Two MLPs (the separable critic's shape, smaller) and the loss of an InfoNCE-like step on fixed data.
struct Model {
  Mlp f{nullptr}, g{nullptr};
  explicit Model(uint64_t seed) {
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    f = Mlp(6, 16, 8, gen);
    g = Mlp(3, 16, 8, gen);
  }
  std::vector<at::Tensor> parameters() const {
    std::vector<at::Tensor> all = f->parameters();
    for (const at::Tensor& p : g->parameters()) all.push_back(p);
    return all;
  }
  at::Tensor loss(const at::Tensor& x, const at::Tensor& y) {
    return -at::log_softmax(f->forward(x).matmul(g->forward(y).t()), 1).diagonal().mean();
  }
};

}  // namespace

class TestFlatAdam : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The lab's one intra-op thread on this thread too, so the suite computes the same digits on any machine.
  void initTestCase() { initTorchRuntime(); }
  void stepsAsTorchAdamToTheBit() {
    Model ours(5), theirs(5);
    FlatAdam flat(ours.parameters(), 0.01);
    torch::optim::Adam adam(theirs.parameters(), torch::optim::AdamOptions(0.01));
    at::Generator data = at::make_generator<at::CPUGeneratorImpl>(9);
    for (int step = 0; step < 50; ++step) {
      const at::Tensor x = at::randn({12, 6}, data), y = at::randn({12, 3}, data);
      const at::Tensor a = ours.loss(x, y), b = theirs.loss(x, y);
      QVERIFY(at::equal(a, b));  // the forward read the stepped values
      flat.zero_grad();
      a.backward();
      adam.zero_grad();
      b.backward();
      const std::vector<at::Tensor> p = ours.parameters(), q = theirs.parameters();
      for (size_t i = 0; i < p.size(); ++i)
        QVERIFY2(at::equal(p[i].grad(), q[i].grad()), qPrintable(QString::number(i)));
      flat.step();
      adam.step();
      for (size_t i = 0; i < p.size(); ++i) QVERIFY2(at::equal(p[i], q[i]), qPrintable(QString::number(step)));
    }
    // The values moved (a step that did nothing would also be equal).
    QVERIFY(!at::equal(ours.parameters()[0], Model(5).parameters()[0]));
  }

  // The parameters are views of one buffer, and their gradients of another: zero_grad is one fill, and a second
  // backward adds to the first, as autograd does for any parameter.
  void gradientsAccumulateInTheFlatBuffer() {
    Model m(2);
    FlatAdam flat(m.parameters(), 0.01);
    const std::vector<at::Tensor> p = m.parameters();
    for (size_t i = 1; i < p.size(); ++i)
      QCOMPARE(p[i].storage().data(), p[0].storage().data());  // one storage for all
    const at::Tensor x = at::randn({4, 6}), y = at::randn({4, 3});
    flat.zero_grad();
    m.loss(x, y).backward();
    const at::Tensor once = p[0].grad().clone();
    m.loss(x, y).backward();
    QVERIFY(at::allclose(p[0].grad(), 2 * once));
    flat.zero_grad();
    for (const at::Tensor& t : p) QCOMPARE(t.grad().abs().sum().item<double>(), 0.0);
  }

  // The fused pass is what steps a CPU run where the CPU has FMA (the probe would otherwise send FlatAdam back to
  // ATen's operations, quietly), and it gives ATen's bits on a buffer that is not a whole number of vectors.
  void fusedPassStepsAsAtenToTheBit() {
    if (!adamRowsHaveFma()) QSKIP("no FMA on this CPU: FlatAdam takes ATen's operations");
    QVERIFY(adamRowsReproduceAten());
    at::manual_seed(3);
    const int64_t n = 1037;
    at::Tensor values = at::randn({n}), expAvg = at::zeros({n}), expAvgSq = at::zeros({n});
    at::Tensor fusedValues = values.clone(), fusedAvg = expAvg.clone(), fusedAvgSq = expAvgSq.clone();
    for (int64_t step = 1; step <= 30; ++step) {
      const at::Tensor grads = at::randn({n}) * (step % 3 == 0 ? 1e-5 : 2.0);
      const double bc1 = 1 - std::pow(0.9, step), bc2 = 1 - std::pow(0.999, step);
      expAvg.mul_(0.9).add_(grads, 1 - 0.9);  // torch::optim::Adam's step, as FlatAdam wrote it before
      expAvgSq.mul_(0.999).addcmul_(grads, grads, 1 - 0.999);
      values.addcdiv_(expAvg, (expAvgSq.sqrt() / std::sqrt(bc2)).add_(1e-8), -(0.01 / bc1));
      const AdamRowsStep s{0.9f,
                           static_cast<float>(1 - 0.9),
                           0.999f,
                           static_cast<float>(1 - 0.999),
                           static_cast<float>(std::sqrt(bc2)),
                           1e-8f,
                           static_cast<float>(-(0.01 / bc1))};
      adamRows(fusedValues.data_ptr<float>(), grads.data_ptr<float>(), fusedAvg.data_ptr<float>(),
               fusedAvgSq.data_ptr<float>(), n, s);
      QVERIFY2(at::equal(values, fusedValues) && at::equal(expAvg, fusedAvg) && at::equal(expAvgSq, fusedAvgSq),
               qPrintable(QString("step %1").arg(step)));
    }
  }
  void refusesMixedDtypes() {
    const at::Tensor a = at::zeros({2}).requires_grad_(), b = at::zeros({2}, at::kDouble).requires_grad_();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlatAdam({a, b}, 0.1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlatAdam({}, 0.1));
    FlatAdam twice({a, a}, 0.1);  // a tensor listed twice is one parameter
    QCOMPARE(twice.parameters().size(), size_t(1));
  }
};

QTEST_MAIN(TestFlatAdam)
#include "test_flat_adam.moc"
