// KSG's two neighbour searches side by side (knn/ksg.h): milliseconds per estimate for the trees and for every pair,
// over points x joint dimensions, on correlated Gaussian samples, one thread, each timed on the same data in one
// run. What NeighbourSearch::Automatic picks is printed beside them; its constants in knn/ksg.cpp come from here.
// `bench_ksg [repeats] [largest points]`.
#include <Eigen/Core>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "knn/ksg.h"

using namespace milab;

namespace {

SampleMatrix gaussian(Eigen::Index n, Eigen::Index d, std::mt19937& rng) {
  std::normal_distribution<double> z;
  SampleMatrix m(n, d);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = z(rng);
  return m;
}

// The best of `repeats` timings, in milliseconds.
template <class F>
double bestMs(int repeats, F&& f) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    QElapsedTimer t;
    t.start();
    f();
    best = std::min(best, double(t.nsecsElapsed()) / 1e6);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const Eigen::Index largest = argc > 2 ? std::atoll(argv[2]) : 20000;  // the trees take minutes at 20,000
  std::printf("%8s %6s %10s %12s %8s %s\n", "points", "dims", "trees ms", "every pair ms", "ratio", "automatic");
  for (const Eigen::Index n : {500, 1000, 2000, 5000, 10000, 20000}) {
    if (n > largest) break;
    for (const Eigen::Index half : {1, 2, 3, 4, 5, 10, 25}) {
      std::mt19937 rng(1);
      const SampleMatrix x = gaussian(n, half, rng);
      const SampleMatrix y = 0.8 * x + 0.6 * gaussian(n, half, rng);
      double a = 0, b = 0;
      const double trees = bestMs(repeats, [&] { a = ksgMutualInformation(x, y, 3, {}, NeighbourSearch::Trees); });
      const double pairs = bestMs(repeats, [&] { b = ksgMutualInformation(x, y, 3, {}, NeighbourSearch::EveryPair); });
      if (a != b) std::printf("different readings: %.17g and %.17g\n", a, b);
      std::printf("%8lld %6lld %10.1f %12.1f %8.2f %s\n", (long long)n, (long long)(2 * half), trees, pairs,
                  trees / pairs, ksgPrefersEveryPair(n, 2 * half) ? "every pair" : "trees");
    }
  }
  return 0;
}
