#include "gui/views/background_view.h"

#include <qcustomplot.h>

#include <QDir>

#include "plot/figure_title.h"
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

void BackgroundView::showPending(const QString& title) {
  resetWithTitle(plot_, title);
  if (plot_->legend) plot_->legend->setVisible(false);
  pendingNote_ = new QCPItemText(plot_);
  pendingNote_->position->setType(QCPItemPosition::ptAxisRectRatio);
  pendingNote_->position->setCoords(0.5, 0.5);
  pendingNote_->setFont(QFont("sans", 11));
  pendingNote_->setText(pendingText());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString BackgroundView::pendingText() const {
  return progressLine() + QStringLiteral("\nthe figure is drawn when it ends");
}

bool BackgroundView::poll() {
  if (running_ && pendingNote_ && plot_->hasItem(pendingNote_)) {
    pendingNote_->setText(pendingText());
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
  if (!running_ || !update()) return false;
  pendingNote_ = nullptr;
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
