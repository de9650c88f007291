#pragma once
// Runs a grid's cells, `jobs` at a time, each on its own worker thread (one intra-op thread each, so jobs
// up to the core count scale). Each cell's summary.json and curve.csv are written as soon as it ends, under
// OUT/cells/<name>/, and a finished cell already there with the same experiment is reused, not rerun: an
// interrupted grid resumes. At the end: OUT/grid.csv and OUT/estimate_vs_K.{png,pdf,svg}.
#include <QList>
#include <QString>
#include <atomic>

#include "engine/experiment.h"

namespace milab {

class MethodRegistry;

// Returns the CLI's exit code: 0, 1 (a cell failed; everything else written), 130 (interrupted).
int runGrid(const QList<GridCell>& cells, const QString& outDir, int jobs, const MethodRegistry& registry,
            const std::atomic<bool>& interrupted);

}  // namespace milab
