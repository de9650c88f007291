#pragma once
// `milab-cli prior-orders`: runs the prior-order sweep (AMMI's Figure 1(a)) and writes OUT/summary.json,
// OUT/prior_orders.csv (rewritten as each order ends) and OUT/prior_orders.{png,pdf,svg}.
#include <QString>
#include <atomic>

namespace milab {

class MethodPlugin;
struct PriorOrderSweepSpec;

// Returns the CLI's exit code: 0, 1 (the sweep failed; what it measured is written), 130 (interrupted).
int runPriorOrders(const PriorOrderSweepSpec& spec, const MethodPlugin& method, const QString& outDir,
                   const std::atomic<bool>& interrupted);

}  // namespace milab
