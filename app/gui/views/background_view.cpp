#include "gui/views/background_view.h"

#include <qcustomplot.h>

#include <QDir>

#include "results/out_folder.h"

namespace milab {

BackgroundView::BackgroundView(QWidget* parent) : plot_(new QCustomPlot(parent)) {}

BackgroundView::~BackgroundView() = default;  // the plot belongs to its parent widget

QString BackgroundView::start(const QString& path, const QString& outDir) {
  QString err = prepare(path);
  if (err.isEmpty() && outDir.isEmpty()) err = QStringLiteral("out: %1 needs a folder for its results").arg(what());
  if (err.isEmpty() && claimsOutFolder())
    err = claimOutFolder(outDir, &lock_);  // makes the folder too
  else if (err.isEmpty() && !QDir().mkpath(outDir))
    err = QStringLiteral("out: cannot create folder '%1'").arg(outDir);
  if (!err.isEmpty()) return err;
  outDir_ = outDir;
  errors_.clear();
  running_ = true;
  launch(outDir);
  return {};
}

bool BackgroundView::poll() {
  if (!running_ || !update()) return false;
  errors_ = finish(outDir_);
  lock_.reset();
  running_ = false;
  return true;
}

QString BackgroundView::resultHtml() const {
  QString text = summaryHtml() + QStringLiteral("<br>files in %1").arg(outDir_.toHtmlEscaped());
  for (const QString& e : errors_)
    text += QStringLiteral("<br><span style='color:#c0392b'>%1</span>").arg(e.toHtmlEscaped());
  return text;
}

}  // namespace milab
