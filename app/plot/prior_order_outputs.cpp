#include "plot/prior_order_outputs.h"

#include <qcustomplot.h>

#include <QDir>

#include "plot/plot_export.h"
#include "plot/prior_order_plot.h"
#include "results/prior_order_files.h"
#include "engine/prior_order_sweep_options.h"

namespace milab {

QString priorOrderPlotTitle(const PriorOrderSweepSpec& spec) {
  return QStringLiteral("prior order vs brute-force H(Z): %1 encoder, m = %2, %3 steps")
      .arg(spec.encoder.method)
      .arg(MarkovEncoderKeys::from(spec.encoder.methodParams).bits)
      .arg(spec.encoder.steps);
}

QStringList writePriorOrderOutputs(const QString& outDir, const PriorOrderSweepSpec& spec,
                                   const PriorOrderSweep& sweep) {
  const QDir dir(outDir);
  QStringList errors{writePriorOrderCsv(dir.filePath("prior_orders.csv"), sweep),
                     writePriorOrderSummary(dir.filePath("summary.json"), spec, sweep)};
  QCustomPlot plot;
  drawPriorOrderPlot(&plot, sweep, priorOrderPlotTitle(spec));
  for (const char* name : {"prior_orders.png", "prior_orders.pdf", "prior_orders.svg"})
    errors << exportPlot(&plot, dir.filePath(name));
  errors.removeAll(QString());
  return errors;
}

}  // namespace milab
