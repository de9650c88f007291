#include "nn/ordered_sums.h"

namespace milab {

float eightLaneSum(const float* v, int64_t n) {
  float lanes[8] = {};
  const int64_t whole = n - n % 8;
  for (int64_t j = 0; j < whole; j += 8)
    for (int l = 0; l < 8; ++l) lanes[l] += v[j + l];
  for (int64_t j = whole; j < n; ++j) lanes[0] += v[j];
  return ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) + ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]));
}

}  // namespace milab
