#include "gui/views/prior_order_view.h"

#include <qcustomplot.h>

#include "engine/experiment.h"
#include "engine/prior_order_sweep_options.h"
#include "engine/run.h"
#include "method/method_registry.h"
#include "plot/plot_export.h"
#include "plot/prior_order_outputs.h"
#include "plot/prior_order_plot.h"
#include "results/prior_order_files.h"

namespace milab {

PriorOrderView::PriorOrderView(const MethodRegistry& registry, QWidget* parent)
    : BackgroundView(parent), registry_(registry) {}

PriorOrderView::~PriorOrderView() = default;

QString PriorOrderView::prepare(const QString& path) {
  Experiment experiment;
  QString err = readExperiment(path, &experiment);
  if (err.isEmpty()) err = priorOrderSweepFromExperiment(experiment, registry_, &spec_);
  return err;
}

void PriorOrderView::launch(const QString&) {
  const PriorOrderSweepSpec spec = spec_;
  const MethodPlugin* method = registry_.find(spec.encoder.method);
  job_ = std::make_unique<BackgroundJob<PriorOrderSweep>>(
      [spec, method](const std::atomic<bool>& cancel, std::atomic<int>& progress) {
        return runPriorOrderSweep(
            spec, *method, [&progress](const PriorOrderPoint&) { ++progress; }, cancel);
      });
  job_->start();
  showPending(priorOrderPlotTitle(spec_));
}

QStringList PriorOrderView::finish(const QString& outDir) {
  const PriorOrderSweep& r = job_->result();
  drawPriorOrderPlot(plot(), r, priorOrderPlotTitle(spec_));
  QStringList errors = writePriorOrderOutputs(outDir, spec_, r);
  if (!r.error.isEmpty()) errors.prepend(r.error);
  return errors;
}

QString PriorOrderView::progressLine() const {
  const int done = job_->progress();
  return done == 0 ? QStringLiteral("prior-order sweep: training the encoder")
                   : QStringLiteral("prior-order sweep: %1 orders done").arg(done);
}

QString PriorOrderView::startedHtml() const {
  return QStringLiteral("Training the %1 encoder (m = %2) for %3 steps, then the prior orders up to %4")
      .arg(spec_.encoder.method)
      .arg(MarkovEncoderKeys::from(spec_.encoder.methodParams).bits)
      .arg(spec_.encoder.steps)
      .arg(PriorOrderSweepOptions::from(spec_.sweep).maxOrder);
}

QString PriorOrderView::summaryHtml() const {
  const PriorOrderSweep& r = job_->result();
  const QString status = statusName(outcomeOf(r.error, r.cancelled));
  QString text = QStringLiteral(
                     "<b>prior-order sweep %1</b>: brute-force H(Z) = %2 &middot; m log 2 = %3 &middot; "
                     "%4 orders")
                     .arg(status)
                     .arg(r.bruteForceEntropy, 0, 'f', 4)
                     .arg(r.uniform, 0, 'f', 4)
                     .arg(r.points.size());
  if (!r.points.isEmpty())
    text += QStringLiteral("<br>best order-%1 prior %2 nats, order-%3 prior %4 nats")
                .arg(r.points.first().order)
                .arg(r.points.first().optimal, 0, 'f', 4)
                .arg(r.points.last().order)
                .arg(r.points.last().optimal, 0, 'f', 4);
  return text;
}

QString PriorOrderView::exportTo(const QString& path) const {
  if (path.endsWith(".csv", Qt::CaseInsensitive)) return writePriorOrderCsv(path, job_->result());
  if (path.endsWith(".json", Qt::CaseInsensitive)) return writePriorOrderSummary(path, spec_, job_->result());
  return exportPlot(plot(), path);
}

}  // namespace milab
