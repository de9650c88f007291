#pragma once
// The prior-order sweep's results as files (AMMI's Figure 1(a)): pure functions, shared by the CLI and tests.
#include <QString>

#include "engine/prior_order_sweep.h"

namespace milab {

// order,optimal_cross_entropy,fitted_cross_entropy,brute_force_entropy,m_log_2,fit_seconds (nats; fitted
// empty when not fitted). Returns "" or an error line naming the file.
QString writePriorOrderCsv(const QString& path, const PriorOrderSweep& sweep);

// The experiment (flat), status, device, encoder seconds, the two references and every order's readings.
QString writePriorOrderSummary(const QString& path, const PriorOrderSweepSpec& spec, const PriorOrderSweep& sweep);

}  // namespace milab
