// The factorised densities behind DoE and CLUB, against closed forms: the Gaussian log density, the logistic
// law integrating to one with its known variance, and CLUB's all-pairs mean in O(B d) equal to the broadcast.
#include <QtTest>

#include <ATen/ATen.h>
#include <cmath>

#include "engine/device.h"
#include "nn/density_model.h"

using namespace milab;

class TestDensityModel : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The lab's one intra-op thread on this thread too, so the suite computes the same digits on any machine.
  void initTestCase() { initTorchRuntime(); }
  void gaussianIsTheTextbookDensity() {
    const at::Tensor y = at::tensor({0.3, -1.2}, at::kDouble), mean = at::tensor({0.1, 0.5}, at::kDouble);
    const at::Tensor logScale = at::tensor({std::log(0.7), std::log(2.0)}, at::kDouble);
    double expected = 0;
    for (auto [v, m, s] : {std::tuple{0.3, 0.1, 0.7}, std::tuple{-1.2, 0.5, 2.0}})
      expected += -0.5 * std::log(2 * M_PI * s * s) - (v - m) * (v - m) / (2 * s * s);
    QVERIFY(std::abs(logDensity(DensityFamily::Gaussian, y, mean, logScale).item<double>() - expected) < 1e-12);
  }

  // A logistic law with scale s integrates to 1 and has variance s^2 pi^2 / 3; far in the tails the softplus
  // form stays finite where a naive log(e^-z / (1 + e^-z)^2) overflows.
  void logisticIsANormalisedDensity() {
    const double s = 0.6, mu = 0.4;
    const at::Tensor grid = at::linspace(-30, 30, 600001, at::kDouble).unsqueeze(1);
    const at::Tensor p = logDensity(DensityFamily::Logistic, grid, at::full({1}, mu, at::kDouble),
                                    at::full({1}, std::log(s), at::kDouble))
                             .exp();
    const double dy = 60.0 / 600000, mass = p.sum().item<double>() * dy;
    const double variance = (p * (grid.squeeze(1) - mu).pow(2)).sum().item<double>() * dy;
    qInfo("logistic: mass %.8f, variance %.6f (closed form %.6f)", mass, variance, s * s * M_PI * M_PI / 3);
    QVERIFY(std::abs(mass - 1) < 1e-6);
    QVERIFY(std::abs(variance - s * s * M_PI * M_PI / 3) < 1e-4);
    const at::Tensor far = logDensity(DensityFamily::Logistic, at::full({1, 1}, 1e4, at::kFloat), at::zeros({1}),
                                      at::zeros({1}));
    QVERIFY(std::isfinite(far.item<double>()));
  }

  void allPairsMeanEqualsTheBroadcast() {
    at::manual_seed(1);
    const at::Tensor y = at::randn({7, 3}, at::kDouble), mean = at::randn({7, 3}, at::kDouble);
    const at::Tensor logScale = 0.3 * at::randn({7, 3}, at::kDouble);
    const double fast = gaussianMeanLogDensityOverPairs(y, mean, logScale).item<double>();
    const double broadcast =
        logDensity(DensityFamily::Gaussian, y.unsqueeze(0), mean.unsqueeze(1), logScale.unsqueeze(1)).mean().item<double>();
    QVERIFY(std::abs(fast - broadcast) < 1e-12);
  }

  void familyNamesAreChecked() {
    QVERIFY(densityFamilyOf("gaussian") == DensityFamily::Gaussian);
    QVERIFY(densityFamilyOf("logistic") == DensityFamily::Logistic);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, densityFamilyOf("laplace"));
  }
};

QTEST_GUILESS_MAIN(TestDensityModel)
#include "test_density_model.moc"
