#pragma once
// The rows of a finite-sample run, drawn once per (task, N, seed) by a generator of their own (engine/sample_set.h
// standardises and splits them), and written out as a table, before standardisation, so that another tool reads
// exactly the data the lab read: `milab-cli sample`. Torch-free: the CLI includes it.
#include <QString>
#include <QVector>

#include "params/param_spec.h"

namespace milab {

// Writes the `samples` rows that a run of `task` (validated `taskParams`) with that N and `seed` reads, in the
// order it draws them: x's columns, then x''s (a task with a subview), then y's. FILE.csv: a header (x0.., xp0..,
// y0..) and each float as %.9g, which reads back to the same float; FILE.npy: float32, shape [N, columns]. The file
// is written whole or not at all, and never over an existing one. Returns "" or one line naming what is wrong.
inline constexpr qint64 kMaxSampleValues = 100000000;  // rows x columns: 400 MB of floats, up to 1.6 GB of CSV
QString exportSampleRows(const QString& task, const ParamMap& taskParams, qint64 samples, int seed,
                         const QString& path);

// The same rows in memory (the Python module's milab.sample): x's columns, then x''s, then y's, float32, row-major.
struct SampleTable {
  qint64 rows = 0;
  int dimX = 0, dimXp = 0, dimY = 0;
  QVector<float> values;
};
QString drawSampleTable(const QString& task, const ParamMap& taskParams, qint64 samples, int seed, SampleTable* out);

}  // namespace milab
