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
  return text + precisionTable(r);
}

// AMMI's Table 1 layout: a row per method, a column per code length; each cell the top-k precision and, below it,
// the codes' entropy per bit; then chance, a random ranking's precision.
QString HashingView::precisionTable(const HashingResult& r) {
  QList<int> lengths;
  QStringList methods;
  for (const HashingRow& row : r.rows) {
    if (!lengths.contains(row.bits)) lengths << row.bits;
    if (!methods.contains(row.method)) methods << row.method;
  }
  if (r.rows.isEmpty()) return {};
  QString table = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\" border=\"1\"><tr><th>method</th>");
  for (int m : lengths) table += QStringLiteral("<th>m = %1</th>").arg(m);
  table += QStringLiteral("</tr>");
  for (const QString& method : methods) {
    table += QStringLiteral("<tr><td>%1</td>").arg(method.toHtmlEscaped());
    for (int m : lengths) {
      QString cell = QStringLiteral("-");
      for (const HashingRow& row : r.rows)
        if (row.method == method && row.bits == m)
          cell = QStringLiteral("%1<br><small>%2 bits of entropy a bit</small>")
                     .arg(row.precision, 0, 'f', 3)
                     .arg(row.bitEntropy, 0, 'f', 2);
      table += QStringLiteral("<td>%1</td>").arg(cell);
    }
    table += QStringLiteral("</tr>");
  }
  table += QStringLiteral("<tr><td>chance</td><td colspan=\"%1\">%2</td></tr></table>")
               .arg(lengths.size())
               .arg(r.chancePrecision, 0, 'f', 3);
  return table;
}

QString HashingView::exportTo(const QString& path) const {
  if (path.endsWith(".csv", Qt::CaseInsensitive)) return writeHashingCsv(path, job_->result().rows);
  if (path.endsWith(".json", Qt::CaseInsensitive)) return writeHashingSummary(path, spec_, job_->result());
  return exportPlot(plot(), path);
}

}  // namespace milab
