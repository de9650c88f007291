#pragma once
// The hashing experiment as a figure: top-k precision against the code length m (log scale), one line per
// method (AMMI, LSH).
#include "hashing/hashing_experiment.h"

class QCustomPlot;

namespace milab {

// Clears `plot` and draws the rows on it.
void drawHashingPlot(QCustomPlot* plot, const HashingResult& result, int topK);

}  // namespace milab
