// KSG and its conditional form: both neighbour searches, the k-d trees (nanoflann, Euclidean trees read in the max
// norm) and every pair at once (knn/ksg_every_pair.h), give exactly the brute-force counts; the estimators vanish
// on independent data, and bad input is refused.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "engine/device.h"
#include "knn/ksg.h"
#include "method/estimator.h"

using namespace milab;

namespace {

SampleMatrix gaussian(Eigen::Index n, Eigen::Index d, std::mt19937& rng) {
  std::normal_distribution<double> z;
  SampleMatrix m(n, d);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = z(rng);
  return m;
}

double maxNorm(const SampleMatrix& m, Eigen::Index a, Eigen::Index b) {
  return (m.row(a) - m.row(b)).cwiseAbs().maxCoeff();
}

// psi at positive integers: -gamma + H_{n-1}; an independent reference for the library's digamma.
double digammaInt(int n) {
  double h = -0.57721566490153286;
  for (int i = 1; i < n; ++i) h += 1.0 / i;
  return h;
}

// Frenzel-Pompe by brute force, written from the formula.
double cmiBruteForce(const SampleMatrix& x, const SampleMatrix& y, const SampleMatrix& z, int k) {
  const Eigen::Index n = x.rows();
  SampleMatrix xyz(n, x.cols() + y.cols() + z.cols()), xz(n, x.cols() + z.cols()), yz(n, y.cols() + z.cols());
  xyz << x, y, z;
  xz << x, z;
  yz << y, z;
  double sum = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    std::vector<double> d;
    for (Eigen::Index j = 0; j < n; ++j)
      if (j != i) d.push_back(maxNorm(xyz, i, j));
    std::sort(d.begin(), d.end());
    const double eps = d[size_t(k - 1)];
    int nxz = 0, nyz = 0, nz = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (j == i) continue;
      nxz += maxNorm(xz, i, j) < eps;
      nyz += maxNorm(yz, i, j) < eps;
      nz += maxNorm(z, i, j) < eps;
    }
    sum += digammaInt(nxz + 1) + digammaInt(nyz + 1) - digammaInt(nz + 1);
  }
  return digammaInt(k) - sum / double(n);
}

// KSG's first estimator (Kraskov, Stoegbauer & Grassberger 2004, eq. 8) by brute force, written from the paper and
// not from ksg.cpp: eps_i is the max-norm distance to the k-th neighbour in the joint space; n_x, n_y count the
// points strictly closer than eps_i in each marginal space; I = psi(k) + psi(N) - < psi(n_x + 1) + psi(n_y + 1) >.
double ksgBruteForce(const SampleMatrix& x, const SampleMatrix& y, int k) {
  const Eigen::Index n = x.rows();
  SampleMatrix xy(n, x.cols() + y.cols());
  xy << x, y;
  double sum = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    std::vector<double> d;
    for (Eigen::Index j = 0; j < n; ++j)
      if (j != i) d.push_back(maxNorm(xy, i, j));
    std::nth_element(d.begin(), d.begin() + (k - 1), d.end());
    const double eps = d[size_t(k - 1)];
    int nx = 0, ny = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (j == i) continue;
      nx += maxNorm(x, i, j) < eps;
      ny += maxNorm(y, i, j) < eps;
    }
    sum += digammaInt(nx + 1) + digammaInt(ny + 1);
  }
  return digammaInt(k) + digammaInt(int(n)) - sum / double(n);
}

}  // namespace

class TestKsg : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The lab's one intra-op thread on this thread too, so the suite computes the same digits on any machine.
  void initTestCase() { initTorchRuntime(); }
  void treeSearchEqualsBruteForce_data() {
    QTest::addColumn<int>("dx");
    QTest::addColumn<int>("dy");
    QTest::addColumn<int>("k");
    QTest::newRow("1+1, k 1") << 1 << 1 << 1;
    QTest::newRow("1+1, k 3") << 1 << 1 << 3;
    QTest::newRow("3+2, k 3") << 3 << 2 << 3;
    QTest::newRow("8+8, k 5") << 8 << 8 << 5;
    // Every pair finds the k-th neighbour by a scan up to k = 32 and by nth_element above (knn/ksg_every_pair.cpp).
    QTest::newRow("3+2, k 32") << 3 << 2 << 32;
    QTest::newRow("3+2, k 40") << 3 << 2 << 40;
  }
  void treeSearchEqualsBruteForce() {
    QFETCH(int, dx);
    QFETCH(int, dy);
    QFETCH(int, k);
    std::mt19937 rng(7);
    const SampleMatrix x = gaussian(400, dx, rng);
    SampleMatrix y = gaussian(400, dy, rng);
    y.col(0) += 0.8 * x.col(0);  // dependent, so the counts are not all alike
    // Against the test's own transcription of the paper (its own digamma), and the library's brute force too.
    const double brute = ksgBruteForce(x, y, k);
    for (const NeighbourSearch search : {NeighbourSearch::Trees, NeighbourSearch::EveryPair}) {
      const double v = ksgMutualInformation(x, y, k, {}, search);
      qInfo("KSG %d+%d k=%d: %s %.12f, brute force %.12f", dx, dy, k,
            search == NeighbourSearch::Trees ? "trees" : "pairs", v, brute);
      QVERIFY(std::abs(v - brute) < 1e-10);
    }
    QVERIFY(std::abs(ksgMutualInformationBruteForce(x, y, k) - brute) < 1e-10);
  }

  void conditionalSearchesEqualBruteForce() {
    std::mt19937 rng(11);
    const SampleMatrix z = gaussian(300, 2, rng);
    SampleMatrix x = gaussian(300, 2, rng), y = gaussian(300, 2, rng);
    x += 0.5 * z;
    y += 0.7 * x - 0.3 * z;
    const double brute = cmiBruteForce(x, y, z, 3);
    for (const NeighbourSearch search : {NeighbourSearch::Trees, NeighbourSearch::EveryPair}) {
      const double v = ksgConditionalMutualInformation(x, y, z, 3, {}, search);
      qInfo("KSG-CMI: %s %.12f, brute force %.12f", search == NeighbourSearch::Trees ? "trees" : "pairs", v, brute);
      QVERIFY(std::abs(v - brute) < 1e-12);
    }
  }

  // Ties (a repeated row) put the k-th neighbour at distance 0; both searches then count nothing strictly within.
  void bothSearchesAgreeOnTies() {
    std::mt19937 rng(2);
    SampleMatrix x = gaussian(200, 2, rng), y = gaussian(200, 2, rng);
    for (Eigen::Index r = 1; r < 6; ++r) x.row(r) = x.row(0), y.row(r) = y.row(0);
    const double trees = ksgMutualInformation(x, y, 3, {}, NeighbourSearch::Trees);
    QCOMPARE(ksgMutualInformation(x, y, 3, {}, NeighbourSearch::EveryPair), trees);
    QVERIFY(std::abs(trees - ksgBruteForce(x, y, 3)) < 1e-10);
  }

  // The closed form: rho = 0.8 in one dimension is I = -0.5 log(1 - 0.64) = 0.511; KSG is nearly unbiased here.
  void readsAKnownGaussianMi() {
    std::mt19937 rng(3);
    const SampleMatrix x = gaussian(3000, 1, rng);
    const SampleMatrix y = 0.8 * x + 0.6 * gaussian(3000, 1, rng);
    const double v = ksgMutualInformation(x, y, 3), truth = -0.5 * std::log(1 - 0.64);
    qInfo("KSG rho 0.8: %.4f (true %.4f)", v, truth);
    QVERIFY(std::abs(v - truth) < 0.05);
  }

  void vanishesOnIndependentData() {
    std::mt19937 rng(5);
    const SampleMatrix x = gaussian(2000, 3, rng), y = gaussian(2000, 3, rng), z = gaussian(2000, 2, rng);
    const double mi = ksgMutualInformation(x, y, 3), cmi = ksgConditionalMutualInformation(x, y, z, 3);
    qInfo("independent: KSG %.4f, KSG-CMI %.4f", mi, cmi);
    QVERIFY(std::abs(mi) < 0.05);
    QVERIFY(std::abs(cmi) < 0.05);
  }

  void refusesBadInput() {
    std::mt19937 rng(1);
    const SampleMatrix x = gaussian(10, 1, rng), y = gaussian(10, 1, rng), shorter = gaussian(9, 1, rng);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ksgMutualInformation(x, y, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ksgMutualInformation(x, y, 10));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ksgMutualInformation(x, shorter, 3));
  }

  void stopsWhenCancelled() {
    std::mt19937 rng(1);
    const SampleMatrix x = gaussian(1000, 2, rng), y = gaussian(1000, 2, rng);
    int polls = 0;
    QVERIFY_THROWS_EXCEPTION(EstimatorCancelled, ksgMutualInformation(
                                                     x, y, 3, [&] { return ++polls > 1; }, NeighbourSearch::Trees));
    QCOMPARE(polls, 2);  // polled after building the first tree, then between trees: stopped before any count
    polls = 0;
    QVERIFY_THROWS_EXCEPTION(EstimatorCancelled, ksgMutualInformation(
                                                     x, y, 3, [&] { return ++polls > 2; }, NeighbourSearch::EveryPair));
    QCOMPARE(polls, 3);  // before each point: stopped at the third
  }
};

QTEST_GUILESS_MAIN(TestKsg)
#include "test_ksg.moc"
