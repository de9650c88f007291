// One minibatch of distinct rows (tasks/distinct_rows.h), by a whole shuffle and by Floyd's algorithm, over the size
// of the table: microseconds per draw of 256 rows, the median of `rounds` rounds of 200 draws each, one thread, both
// timed in one run: the costs kWholeShuffleUpTo's comment quotes (below it the shuffle is kept for reproducibility).
// `bench_row_draws [rounds]`.
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tasks/distinct_rows.h"

using namespace milab;

namespace {

// Median over rounds of the microseconds one draw takes; `threshold` picks the path (0: Floyd, above: shuffle).
double medianMicroseconds(int64_t available, int64_t threshold, int rounds) {
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(1);
  constexpr int kDraws = 200;
  std::vector<double> us;
  for (int r = 0; r < rounds; ++r) {
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < kDraws; ++i) distinctRows(available, 256, gen, threshold);
    us.push_back(double(t.nsecsElapsed()) / 1e3 / kDraws);
  }
  std::nth_element(us.begin(), us.begin() + rounds / 2, us.end());
  return us[size_t(rounds / 2)];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = std::max(1, argc > 1 ? std::atoi(argv[1]) : 5);
  at::set_num_threads(1);
  std::printf("%10s %12s %10s %8s\n", "rows", "shuffle us", "floyd us", "ratio");
  for (const int64_t rows : {2500, 10000, 65536, 262144, 1000000, 4000000}) {
    const double shuffle = medianMicroseconds(rows, rows, rounds);
    const double floyd = medianMicroseconds(rows, 0, rounds);
    std::printf("%10lld %12.1f %10.1f %8.1f\n", (long long)rows, shuffle, floyd, shuffle / floyd);
  }
  return 0;
}
