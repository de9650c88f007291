#include "cli/prior_order_runner.h"

#include <QDir>
#include <cstdio>

#include "engine/prior_order_sweep.h"
#include "plot/prior_order_outputs.h"
#include "results/prior_order_files.h"
#include "engine/prior_order_sweep_options.h"

namespace milab {

int runPriorOrders(const PriorOrderSweepSpec& spec, const MethodPlugin& method, const QString& outDir,
                   const std::atomic<bool>& interrupted) {
  const QDir dir(outDir);
  const MarkovEncoderKeys code = MarkovEncoderKeys::from(spec.encoder.methodParams);
  const int bits = code.bits;
  std::printf("training the %s encoder (m = %d, o = %d) for %d steps\n", spec.encoder.method.toUtf8().constData(), bits,
              code.orderY, spec.encoder.steps);
  std::fflush(stdout);
  PriorOrderSweep partial;
  QStringList errors;
  auto onPoint = [&](const PriorOrderPoint& p) {
    partial.points << p;
    std::printf("r = %2d: best prior %.4f nats, fitted %.4f (%.1f s)\n", p.order, p.optimal, p.fitted, p.seconds);
    std::fflush(stdout);
    errors << writePriorOrderCsv(dir.filePath("prior_orders.csv"), partial);  // kept if interrupted
  };
  const PriorOrderSweep sweep = runPriorOrderSweep(spec, method, onPoint, interrupted);

  errors << writePriorOrderOutputs(outDir, spec, sweep);
  errors.removeAll(QString());
  for (const QString& e : errors) std::fprintf(stderr, "milab-cli: %s\n", e.toLocal8Bit().constData());

  std::printf("brute-force H(Z) %.4f nats, m log 2 %.4f; encoder %.1f s on %s\n", sweep.bruteForceEntropy,
              sweep.uniform, sweep.encoderSeconds, sweep.device.toUtf8().constData());
  if (!sweep.error.isEmpty()) {
    std::fprintf(stderr, "milab-cli: sweep failed: %s\n", sweep.error.toLocal8Bit().constData());
    return 1;
  }
  if (sweep.cancelled) return 130;
  return errors.isEmpty() ? 0 : 1;
}

}  // namespace milab
