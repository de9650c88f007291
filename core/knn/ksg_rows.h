#pragma once
// A tensor's rows as KSG reads them (knn/ksg.h): in double, with ties broken. Shared by the estimators that read
// rows by KSG (ksg and ksg-cmi on x and y, LMI on its latents). Torch header: include it only from torch translation
// units.
#include <ATen/core/Tensor.h>

#include <random>

#include "knn/ksg.h"

namespace milab {

// The rows of a [N, d] tensor (any device and floating dtype) as a double matrix on the host.
SampleMatrix samplesOfRows(const at::Tensor& rows);

// Ties (repeated rows, a constant or integer column) put a point's k-th neighbour at distance 0, and the counts then
// read nonsense: a constant table and three repeated rows read several nats where at most log 3 is possible
// (docs/user-guide.md, "Finite samples: the field's protocol"). Kraskov et al. (2004, section II) break ties with
// "very low-amplitude noise"; as scikit-learn's mutual_info_regression does, normal noise of
// 1e-10 x max(1, mean |column|), in double (a float32 row would lose it), from `rng`. A constant table then reads about
// 0 and three repeated rows about log 3; rows without ties move by ~1e-9 nats. The draws take milliseconds a column at
// 300,000 rows (docs/speed.md, "KSG"): `cancelled` is polled before each column and throws EstimatorCancelled.
void breakTies(SampleMatrix* m, std::mt19937_64* rng, const CancelCheck& cancelled);

}  // namespace milab
