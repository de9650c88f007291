#pragma once
// What a run's largest tensors will take, estimated from its settings before anything is allocated: a setting the
// machine cannot hold is refused at validation (naming its key) instead of growing for a minute and failing on an
// allocation. The estimates are fits of the peak resident memory measured with /usr/bin/time on one step and its
// evaluation (README, "Memory"), within about 20%; refusal starts at half the machine's memory, so a refused run
// would have needed at least about 40% of it.
#include <QString>

namespace milab {

struct MemoryNeed {
  double bytes = 0;  // 0: nothing large, no check
  QString key;       // the setting that drives it, named by the refusal
  QString what;      // e.g. "the conditional negatives' activations, (K/2)^2 pairs x hidden"
  QString advice;    // e.g. "lower K or hidden"
};

double physicalMemoryBytes();

// A critic applied to every (row, negative) pair, as CNCE and the DEMI family apply g to their negatives: about
// 12 bytes per pair and hidden unit (three float activations) over a 0.3 GB base. Measured at K = 2048: demi 1.52 GB
// (1024 x 1024 pairs, hidden 100), 0.91 GB at hidden 50; demi's marginal protocol and cnce 5.5 GB (2048 x 2048).
MemoryNeed negativePairsNeed(double rows, double negativesPerRow, double hidden, const QString& pairs);

// "" or the refusal: "KEY: METHOD needs about X GiB for WHAT, more than half of this machine's Y GiB; ADVICE".
QString refuseIfTooLarge(const QString& method, const MemoryNeed& need, double machineBytes = physicalMemoryBytes());

}  // namespace milab
