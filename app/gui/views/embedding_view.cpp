#include "gui/views/embedding_view.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QPixmap>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include "plot/embedding_figure.h"

namespace milab {

EmbeddingView::EmbeddingView(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), scatter_(new QCustomPlot(this)), retrievals_(new QLabel(this)) {
  setObjectName("embeddingView");
  title_->setObjectName("embeddingTitle");
  scatter_->setObjectName("embeddingScatter");
  retrievals_->setObjectName("embeddingRetrievals");
  title_->setWordWrap(true);
  retrievals_->setAlignment(Qt::AlignTop | Qt::AlignHCenter);
  scatter_->setMinimumSize(240, 200);
  scatter_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  prepareEmbeddingScatter(scatter_);
  // Ten rows of thumbnails are taller than a small window's tab: they scroll.
  sheetArea_ = new QScrollArea(this);
  sheetArea_->setObjectName("embeddingRetrievalsArea");
  sheetArea_->setWidget(retrievals_);
  sheetArea_->setFrameShape(QFrame::NoFrame);
  sheetArea_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* body = new QHBoxLayout;
  body->addWidget(scatter_, 1);
  body->addWidget(sheetArea_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addLayout(body, 1);
}

void EmbeddingView::setMap(const EmbeddingMap& map, const QString& runLabel) {
  title_->setText(
      QStringLiteral("<b>%1</b>: %2.").arg(runLabel.toHtmlEscaped(), embeddingCaption(map).toHtmlEscaped()));
  drawEmbeddingScatter(scatter_, map);
  const QImage sheet = retrievalSheet(map, font());
  retrievals_->setPixmap(QPixmap::fromImage(sheet));
  retrievals_->adjustSize();
  // Wide enough for the sheet and the scroll bar beside it.
  sheetArea_->setFixedWidth(sheet.width() + sheetArea_->verticalScrollBar()->sizeHint().width() + 2);
}

}  // namespace milab
