#include "gui/views/hashing_view.h"

#include <qcustomplot.h>

#include "engine/experiment.h"
#include "engine/run.h"
#include "plot/hashing_outputs.h"
#include "plot/hashing_plot.h"
#include "plot/plot_export.h"
#include "results/hashing_files.h"

namespace milab {

HashingView::HashingView(const MethodRegistry& registry, QWidget* parent)
    : BackgroundView(parent), registry_(registry) {}

HashingView::~HashingView() = default;

QString HashingView::prepare(const QString& path) {
  Experiment experiment;
  QString err = readExperiment(path, &experiment);
  applyOverrides(overrides_, &experiment);
  if (err.isEmpty()) err = hashingSpecFromExperiment(experiment, registry_, &spec_);
  if (err.isEmpty()) err = hashingCorpusProblem(spec_);
  return err;
}

void HashingView::launch(const QString&) {
  const HashingSpec spec = spec_;
  job_ = std::make_unique<BackgroundJob<HashingResult>>(
      [spec, &registry = registry_](const std::atomic<bool>& cancel, std::atomic<int>& progress) {
        return runHashing(
            spec, registry, [&progress](const HashingRow&) { ++progress; }, cancel);
      });
  job_->start();
  const HashingOptions options = HashingOptions::from(spec_.params);
  showPending(QStringLiteral("Hashing %1: top-%2 precision").arg(options.corpusWords()).arg(options.topK));
}

QStringList HashingView::finish(const QString& outDir) {
  const HashingResult& r = job_->result();
  drawHashingPlot(plot(), r, HashingOptions::from(spec_.params).topK);
  QStringList errors = writeHashingOutputs(outDir, spec_, r);
  if (!r.error.isEmpty()) errors.prepend(r.error);
  return errors;
}

QString HashingView::progressLine() const {
  return QStringLiteral("hashing: %1 of %2 rows scored").arg(job_->progress()).arg(2 * spec_.bits.size());
}

QString HashingView::startedHtml() const {
  QStringList lengths;
  for (int m : spec_.bits) lengths << QString::number(m);
  const HashingOptions options = HashingOptions::from(spec_.params);
  return QStringLiteral("Hashing %1 into m = %2 bits with %3 and LSH")
      .arg(options.corpusWords(), lengths.join(", "), options.method.toUpper());
}

QString HashingView::summaryHtml() const {
  const HashingResult& r = job_->result();
  const HashingOptions options = HashingOptions::from(spec_.params);
  QString text = QStringLiteral("<b>hashing %1</b>: top-%2 precision, %3 queries against %4 %5")
                     .arg(statusName(outcomeOf(r.error, r.cancelled)))
                     .arg(options.topK)
                     .arg(r.queries)
                     .arg(r.trainImages)
                     .arg(options.corpusWords());
  for (const HashingRow& row : r.rows)
    text += QStringLiteral("<br>m = %1 %2: %3 (%4 distinct codes, %5 bits of entropy per bit)")
                .arg(row.bits)
                .arg(row.method)
                .arg(row.precision, 0, 'f', 4)
                .arg(row.distinctCodes)
                .arg(row.bitEntropy, 0, 'f', 3);
  return text;
}

QString HashingView::exportTo(const QString& path) const {
  if (path.endsWith(".csv", Qt::CaseInsensitive)) return writeHashingCsv(path, job_->result().rows);
  if (path.endsWith(".json", Qt::CaseInsensitive)) return writeHashingSummary(path, spec_, job_->result());
  return exportPlot(plot(), path);
}

}  // namespace milab
