// The lab's counter-based normals (random/philox_normals): Philox4x32-10 against Random123's published known-answer
// vectors and its own implementation, the draws against the layout the header documents, and 2^20 draws against
// the standard normal (moments, Kolmogorov-Smirnov, tails, independence of neighbours and of Box-Muller's pairs).
// The tolerances are 4-5 standard errors of each statistic at n = 2^20; the key is fixed, so the suite is
// deterministic and each check fails for a wrong transform (a wrong 2 pi, radius or word) by tens of errors.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <vector>

#ifdef MILAB_HAVE_RANDOM123
#include <Random123/philox.h>
#endif

#include "engine/device.h"
#include "random/philox_normals.h"

using namespace milab;

namespace {

constexpr int64_t kDraws = int64_t{1} << 20;

std::vector<float> draws(int64_t n, uint64_t key) {
  std::vector<float> v(static_cast<size_t>(n));
  fillPhiloxNormals(v.data(), n, key);
  return v;
}

double standardNormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace

class TestPhiloxNormals : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { initTorchRuntime(); }

  // Random123's kat_vectors for philox4x32_10 (counter, key -> output).
  void blockMatchesRandom123sKnownAnswers() {
    const uint32_t counters[3][4] = {
        {0, 0, 0, 0}, {~0u, ~0u, ~0u, ~0u}, {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}};
    const uint32_t keys[3][2] = {{0, 0}, {~0u, ~0u}, {0xa4093822, 0x299f31d0}};
    const uint32_t expected[3][4] = {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
                                     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
                                     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}};
    for (int i = 0; i < 3; ++i) {
      uint32_t out[4];
      philoxBlock(counters[i], keys[i], out);
      for (int w = 0; w < 4; ++w) QCOMPARE(out[w], expected[i][w]);
    }
  }

  // Every word of the vectorised draws is Philox's: the normals of a chunk and a partial chunk rebuilt from
  // philoxBlock (and, where Debian's librandom123-dev is there, from Random123's own philox4x32) by the header's
  // formula, in double from the same float-rounded uniforms: equal to libmvec's accuracy.
  void drawsFollowTheDocumentedLayout() {
    const uint64_t key = 0x0123456789abcdefULL;
    const int64_t n = 4096 + 4096 + 7;  // two whole chunks and a partial one
    const std::vector<float> v = draws(n, key);
    const uint32_t k[2] = {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)};
    double worst = 0;
    for (int64_t call = 0; call < (n + 3) / 4; ++call) {
      const uint32_t counter[4] = {static_cast<uint32_t>(call), 0, 0, 0};
      uint32_t w[4];
      philoxBlock(counter, k, w);
#ifdef MILAB_HAVE_RANDOM123
      const r123::Philox4x32::ctr_type c = {{counter[0], 0, 0, 0}};
      const r123::Philox4x32::ctr_type theirs = r123::Philox4x32()(c, {{k[0], k[1]}});
      for (int i = 0; i < 4; ++i) QCOMPARE(w[i], theirs.v[i]);
#endif
      const int64_t chunk = call / 1024, j = call % 1024, base = 4096 * chunk;
      for (int pair = 0; pair < 2; ++pair) {
        const double u = static_cast<double>(static_cast<float>(w[2 * pair]) + 0.5f) * std::ldexp(1.0, -32);
        const double t = static_cast<double>(static_cast<float>(w[2 * pair + 1]) *
                                             static_cast<float>(std::ldexp(1.0, -32) * 2 * M_PI));
        const double r = std::sqrt(std::max(-2 * std::log(u), 0.0));
        const int64_t at[2] = {base + 2048 * pair + j, base + 2048 * pair + 1024 + j};
        const double expected[2] = {r * std::cos(t), r * std::sin(t)};
        for (int s = 0; s < 2; ++s)
          if (at[s] < n) worst = std::max(worst, std::abs(v[at[s]] - expected[s]) / (1 + std::abs(expected[s])));
      }
    }
    QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
  }

  // 2^20 draws read as N(0, 1): mean, variance, skewness, kurtosis, the Kolmogorov-Smirnov distance (0.1% critical
  // value 1.95 / sqrt(n)), the count beyond 4 (expected 66.4, Poisson sd 8.1) and past 5 somewhere in 2^24 draws.
  void drawsAreStandardNormal() {
    std::vector<float> v = draws(kDraws, 42);
    double m1 = 0, m2 = 0, m3 = 0, m4 = 0;
    int64_t beyond4 = 0;
    for (float x : v) {
      const double z = x;
      m1 += z, m2 += z * z, m3 += z * z * z, m4 += z * z * z * z;
      beyond4 += std::abs(z) > 4;
    }
    const double n = static_cast<double>(kDraws);
    m1 /= n, m2 /= n, m3 /= n, m4 /= n;
    qInfo("mean %.5f, variance %.5f, skewness %.5f, kurtosis %.4f, beyond 4: %lld", m1, m2 - m1 * m1, m3, m4,
          static_cast<long long>(beyond4));
    QVERIFY(std::abs(m1) < 4e-3);      // sd 1/1024
    QVERIFY(std::abs(m2 - 1) < 7e-3);  // sd sqrt(2/n) = 0.0014
    QVERIFY(std::abs(m3) < 1.2e-2);    // sd sqrt(6/n) = 0.0024
    QVERIFY(std::abs(m4 - 3) < 5e-2);  // sd sqrt(96/n) = 0.0096
    QVERIFY(beyond4 > 26 && beyond4 < 107);
    std::sort(v.begin(), v.end());
    double ks = 0;
    for (int64_t i = 0; i < kDraws; ++i) {
      const double f = standardNormalCdf(v[i]);
      ks = std::max({ks, std::abs(f - i / n), std::abs(f - (i + 1) / n)});
    }
    qInfo("Kolmogorov-Smirnov distance %.6f (0.1%% critical %.6f)", ks, 1.95 / std::sqrt(n));
    QVERIFY(ks < 1.95 / std::sqrt(n));
    const std::vector<float> many = draws(16 * kDraws, 7);
    QVERIFY(*std::max_element(many.begin(), many.end()) > 5.f);  // 9.6 expected past 5, 4.8 past -5
    QVERIFY(*std::min_element(many.begin(), many.end()) < -5.f);
  }

  // Neighbours uncorrelated, and Box-Muller's two normals from one radius (out[i], out[i + 1024]) independent, not
  // only uncorrelated: E[z1^2 z2^2] = 1 (sd sqrt(8 / pairs)).
  void neighboursAndPairsAreIndependent() {
    const std::vector<float> v = draws(kDraws, 99);
    double lag1 = 0, pairProduct = 0, pairSquares = 0;
    int64_t pairs = 0;
    for (int64_t i = 0; i + 1 < kDraws; ++i) lag1 += double(v[i]) * v[i + 1];
    for (int64_t chunk = 0; chunk < kDraws; chunk += 4096)
      for (int64_t half : {int64_t{0}, int64_t{2048}})
        for (int64_t j = 0; j < 1024; ++j, ++pairs) {
          const double a = v[chunk + half + j], b = v[chunk + half + 1024 + j];
          pairProduct += a * b;
          pairSquares += a * a * b * b;
        }
    lag1 /= kDraws - 1;
    pairProduct /= pairs;
    pairSquares /= pairs;
    qInfo("lag-1 %.5f, pair product %.5f, pair squares %.4f", lag1, pairProduct, pairSquares);
    QVERIFY(std::abs(lag1) < 4 / std::sqrt(double(kDraws)));
    QVERIFY(std::abs(pairProduct) < 4 / std::sqrt(double(pairs)));
    QVERIFY(std::abs(pairSquares - 1) < 4 * std::sqrt(8.0 / pairs));
  }

  // The tensor form: float, the shape asked, the generator's state decides the draws, and each call moves it on.
  void tensorsComeFromTheGeneratorsState() {
    at::Generator a = at::make_generator<at::CPUGeneratorImpl>(3), b = at::make_generator<at::CPUGeneratorImpl>(3);
    const at::Tensor first = philoxNormals({5, 7, 3}, a);
    QCOMPARE(first.scalar_type(), at::kFloat);
    QCOMPARE(first.sizes().vec(), (std::vector<int64_t>{5, 7, 3}));
    QVERIFY(at::equal(first, philoxNormals({5, 7, 3}, b)));
    QVERIFY(!at::equal(first, philoxNormals({5, 7, 3}, a)));
    at::Generator other = at::make_generator<at::CPUGeneratorImpl>(4);
    QVERIFY(!at::equal(first, philoxNormals({5, 7, 3}, other)));
  }
};

QTEST_MAIN(TestPhiloxNormals)
#include "test_philox_normals.moc"
