#include "gui/panels/task_chart.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QSignalBlocker>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

#include "engine/staircase.h"
#include "tasks/task_catalog.h"
#include "tasks/task_preview.h"

namespace milab {

TaskChart::TaskChart(QWidget* parent)
    : plot_(new QCustomPlot(parent)),
      picker_(new QWidget(parent)),
      xColumn_(new QSpinBox(picker_)),
      yColumn_(new QSpinBox(picker_)),
      strip_(new QLabel(parent)) {
  strip_->setObjectName("viewStrip");
  strip_->hide();
  auto* row = new QHBoxLayout(picker_);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(new QLabel("scatter of x_", picker_));
  row->addWidget(xColumn_);
  row->addWidget(new QLabel("against y_", picker_));
  row->addWidget(yColumn_);
  row->addStretch();
  xColumn_->setObjectName("scatterX");
  yColumn_->setObjectName("scatterY");
  for (QSpinBox* box : {xColumn_, yColumn_}) {
    box->setMinimum(1);
    QObject::connect(box, &QSpinBox::valueChanged, box, [this] { show(task_, params_, seed_); });
  }
  picker_->hide();
  plot_->setObjectName("taskChart");
  plot_->setMinimumHeight(170);
  plot_->setMaximumHeight(200);
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, "", QFont("sans", 8, QFont::Bold)));
  // The key is one row between the title and the bars, never over them.
  plot_->legend->setVisible(true);
  plot_->legend->setFont(QFont("sans", 7));
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setMargins(QMargins(0, 0, 0, 0));
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->insertRow(1);
  plot_->plotLayout()->addElement(1, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(1, 0.001);
  plot_->xAxis->setLabel("dimension");
  plot_->yAxis->setLabel("nats");
  for (QCPAxis* a : {plot_->xAxis, plot_->yAxis, plot_->yAxis2}) {
    a->setLabelFont(QFont("sans", 7));
    a->setTickLabelFont(QFont("sans", 7));
    a->setSubTicks(false);
  }
  // The chart is short (a flat gaussian2 split left seven value labels in 60 px): as many value ticks as fit two
  // lines apart, from the height the last layout gave the data (no sub-ticks between them: above).
  QObject::connect(plot_, &QCustomPlot::beforeReplot, plot_, [this] {
    const int lineHeight = QFontMetrics(plot_->yAxis->tickLabelFont()).height();
    const int ticks = std::max(2, plot_->axisRect()->height() / (2 * lineHeight));
    for (QCPAxis* a : {plot_->yAxis, plot_->yAxis2}) a->ticker()->setTickCount(ticks);
  });
}

QString TaskChart::show(const QString& task, const ParamMap& params, int seed) {
  task_ = task;
  params_ = params;
  seed_ = seed;
  picker_->hide();
  strip_->hide();
  plot_->show();
  plot_->clearPlottables();
  plot_->yAxis2->setVisible(false);
  const TaskInfo* info = findTask(task);
  ParamMap checked = params;
  const QString err = info ? validateTaskParams(*info, &checked) : QStringLiteral("task: unknown");
  auto* titleElement = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0));
  if (!err.isEmpty()) {  // the error itself is on its field; a long title here squeezed the axes to a sliver
    title_ = err;
    titleElement->setText(err.startsWith(QLatin1String("dataset:"))
                              ? QStringLiteral("no views until the data set can be read")
                              : QStringLiteral("no chart until the task's settings are valid"));
    plot_->legend->setVisible(false);
    plot_->xAxis->setRange(0, 1);
    plot_->yAxis->setRange(0, 1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return err;
  }
  const std::unique_ptr<TaskModel> model = buildTask(task, checked, static_cast<std::uint64_t>(seed));
  if (info->capabilities.images) {
    strip_->show();
    plot_->hide();
    showViews(*model, seed);
    return {};
  }
  if (const ItemsPreview items = model->previewItems(2, 6, static_cast<std::uint64_t>(seed)); items.rows > 0)
    showItems(items);
  const TaskBreakdown breakdown = model->breakdown();
  if (breakdown.stacked.isEmpty())
    showSamples(*model, seed);
  else
    showBreakdown(breakdown, !scheduleOf(checked).isSet()
                                 ? QString()
                                 : QStringLiteral("\nat the staircase's last level"));
  titleElement->setText(title_);
  plot_->replot(QCustomPlot::rpQueuedReplot);
  return {};
}

void TaskChart::showBreakdown(const TaskBreakdown& b, const QString& titleSuffix) {
  static const QColor kColours[] = {QColor(31, 119, 180, 200), QColor(255, 127, 14, 200), QColor(44, 160, 44, 200)};
  title_ = b.title + titleSuffix;
  plot_->xAxis->setLabel(b.axis);
  plot_->yAxis->setLabel("nats");
  const int dims = b.stacked.front().second.size();
  QVector<double> x;
  for (int i = 0; i < dims; ++i) x << i + 1;
  QCPBars* below = nullptr;
  for (int s = 0; s < b.stacked.size(); ++s) {
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars->setName(b.stacked[s].first);
    bars->setData(x, b.stacked[s].second, true);
    bars->setBrush(kColours[s % 3]);
    bars->setPen(Qt::NoPen);
    if (below) bars->moveAbove(below);
    below = bars;
  }
  const bool right = !b.right.isEmpty();
  if (right) {
    plot_->yAxis2->setVisible(true);
    plot_->yAxis2->setLabel(b.rightName);
    QCPGraph* a = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    a->setName(b.rightName + " (right)");
    a->setData(x, b.right, true);
    a->setLineStyle(QCPGraph::lsNone);
    a->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, Qt::black, 4));
  }
  plot_->legend->setVisible(b.stacked.size() > 1 || right);  // one series needs no key
  plot_->rescaleAxes(true);
  plot_->xAxis->setRange(0.4, dims + 0.6);
  plot_->yAxis->setRange(0, plot_->yAxis->range().upper * 1.1);
  if (right) plot_->yAxis2->setRange(0, 1);
}

// A task without independent dimensions to split the MI over (Beyond Normal): its samples, so the tails, the spiral
// and the half-cube are seen, with the exact MI in the title.
void TaskChart::showSamples(const TaskModel& model, int seed) {
  // A table gives what it has (its rows in a random order); a law, 1500 fresh samples.
  const int points = model.rows() > 0 ? int(std::min<int64_t>(model.rows(), 1500)) : 1500;
  for (auto [box, dim] : {std::pair{xColumn_, model.dimX()}, std::pair{yColumn_, model.dimY()}}) {
    const QSignalBlocker quiet(box);  // the range follows the task without a redraw of its own
    box->setMaximum(dim);
  }
  picker_->setVisible(model.dimX() > 1 || model.dimY() > 1);
  const int xi = xColumn_->value(), yj = yColumn_->value();
  const SamplePreview p = previewSamples(model, points, static_cast<std::uint64_t>(seed), xi - 1, yj - 1);
  const QString truth = std::isnan(model.totalMi())
                            ? QStringLiteral("I(x;y) unknown (a table: no law behind it)")
                        : model.totalMiStandardError() > 0
                            ? QStringLiteral("I(x;y) = %1 ± %2 nats (Monte Carlo)")
                                  .arg(model.totalMi(), 0, 'f', 3)
                                  .arg(model.totalMiStandardError(), 0, 'f', 3)
                            : QStringLiteral("I(x;y) = %1 nats (exact)").arg(model.totalMi(), 0, 'f', 3);
  title_ = QStringLiteral("%1\n%2 samples of (x_%3, y_%4); x in R^%5, y in R^%6")
               .arg(truth)
               .arg(points)
               .arg(xi)
               .arg(yj)
               .arg(model.dimX())
               .arg(model.dimY());
  plot_->xAxis->setLabel(QStringLiteral("x_%1").arg(xi));
  plot_->yAxis->setLabel(QStringLiteral("y_%1").arg(yj));
  QCPGraph* g = plot_->addGraph();
  g->setName("samples");
  g->setData(p.x, p.y);
  g->setLineStyle(QCPGraph::lsNone);
  g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(31, 119, 180, 90), 2.5));
  plot_->legend->setVisible(false);
  // Heavy tails (a Cauchy's) would squeeze the bulk into a point: the view spans the 1st to 99th percentiles.
  const auto span = [](QVector<double> v) {
    std::sort(v.begin(), v.end());
    const double lo = v[int(0.01 * (v.size() - 1))], hi = v[int(0.99 * (v.size() - 1))];
    const double pad = 0.08 * std::max(hi - lo, 1e-9);
    return QCPRange(lo - pad, hi + pad);
  };
  plot_->xAxis->setRange(span(p.x));
  plot_->yAxis->setRange(span(p.y));
}

// Three rows (x, x', y) of 8 images, 36 pixels a side (the form's width holds them), each row named on its left.
void TaskChart::showViews(const TaskModel& model, int seed) {
  constexpr int kImages = 8, cell = 36, kGap = 3, kLabelWidth = 24;
  const ViewsPreview v = previewViews(model, kImages, static_cast<std::uint64_t>(seed));
  QImage strip(kLabelWidth + kImages * (cell + kGap), 3 * (cell + kGap), QImage::Format_RGB32);
  strip.fill(Qt::white);
  QPainter painter(&strip);
  const QList<QPair<QString, const QVector<float>*>> rows{{"x", &v.x}, {"x'", &v.xp}, {"y", &v.y}};
  for (int r = 0; r < rows.size(); ++r) {
    const int top = r * (cell + kGap);
    painter.drawText(QRect(0, top, kLabelWidth - 4, cell), Qt::AlignRight | Qt::AlignVCenter, rows[r].first);
    for (int i = 0; i < v.n; ++i) {
      QImage image(v.side, v.side, QImage::Format_Grayscale8);
      for (int row = 0; row < v.side; ++row) {
        uchar* line = image.scanLine(row);
        for (int col = 0; col < v.side; ++col) {
          const float p = (*rows[r].second)[(i * v.side + row) * v.side + col];
          line[col] = uchar(std::clamp(std::lround(255.0f * p), 0L, 255L));
        }
      }
      painter.drawImage(QRect(kLabelWidth + i * (cell + kGap), top, cell, cell), image);
    }
  }
  painter.end();
  strip_->setPixmap(QPixmap::fromImage(strip));
  title_ = QStringLiteral("%1 views of %2 training images: x and y two augmentations of one image, x' a subview of x")
               .arg(3 * v.n)
               .arg(v.n);
  strip_->setToolTip(title_);
}

void TaskChart::showItems(const ItemsPreview& p) {
  constexpr int kWidth = 320, kLabel = 40, kLine = 13;
  const bool images = p.side > 0;
  const int cell = images ? std::min(44, (kWidth - kLabel) / p.items - 4) : 0;
  const int lineHeight = images ? cell + 4 : 2 * kLine;
  const int texts = std::min(p.items, 2);  // two snippets a row and side: a text needs a line of its own
  const int lines = 2 * p.rows * (images ? 1 : texts);
  QImage strip(kWidth, lines * lineHeight + 2 * kLine, QImage::Format_RGB32);
  strip.fill(Qt::white);
  QPainter painter(&strip);
  QFont font("sans", 7);
  painter.setFont(font);
  const QFontMetrics metrics(font);
  const bool classBits = !p.xBits.isEmpty();  // the class channel's items carry a class bit; a dialogue's do not
  painter.drawText(QRect(0, 0, kWidth, kLine), Qt::AlignLeft,
                   classBits ? QStringLiteral("bit 0: %1, bit 1: %2").arg(p.classNames.value(0), p.classNames.value(1))
                             : QStringLiteral("%1 dialogues as drawn: x the context, y the next utterance").arg(p.rows));
  int top = kLine + 2;
  for (int r = 0; r < p.rows; ++r)
    for (const auto& [name, bits, pixels, snippets] :
         {std::tuple{QStringLiteral("x"), &p.xBits, &p.xPixels, &p.xTexts},
          std::tuple{QStringLiteral("y"), &p.yBits, &p.yPixels, &p.yTexts}}) {
      if (images) {
        painter.drawText(QRect(0, top, kLabel - 4, cell), Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("row %1 %2").arg(r + 1).arg(name));
        for (int i = 0; i < p.items; ++i) {
          QImage image(p.side, p.side, QImage::Format_Grayscale8);
          const int first = (r * p.items + i) * p.side * p.side;
          for (int row = 0; row < p.side; ++row)
            for (int col = 0; col < p.side; ++col)
              image.scanLine(row)[col] = uchar(std::clamp(
                  std::lround(255.0f * (*pixels)[first + row * p.side + col]), 0L, 255L));
          const QRect at(kLabel + i * (cell + 4), top, cell, cell);
          painter.drawImage(at, image);
          painter.fillRect(QRect(at.right() - 9, at.bottom() - 11, 10, 12), Qt::white);
          painter.drawText(QRect(at.right() - 9, at.bottom() - 11, 10, 12), Qt::AlignCenter,
                           QString::number((*bits)[r * p.items + i]));
        }
        top += lineHeight;
        continue;
      }
      for (int i = 0; i < texts; ++i) {
        const QString head = classBits ? QStringLiteral("row %1 %2_%3, bit %4:").arg(r + 1).arg(name).arg(i + 1).arg(
                                             (*bits)[r * p.items + i])
                                       : QStringLiteral("dialogue %1 %2:").arg(r + 1).arg(name);
        const QString text = QString((*snippets)[r * p.items + i]).replace('\n', ' ').simplified();
        painter.drawText(QRect(0, top, kWidth, kLine), Qt::AlignLeft, head);
        painter.drawText(QRect(8, top + kLine - 2, kWidth - 8, kLine), Qt::AlignLeft,
                         metrics.elidedText(text, Qt::ElideRight, kWidth - 8));
        top += lineHeight;
      }
    }
  painter.end();
  strip_->setPixmap(QPixmap::fromImage(strip));
  strip_->setToolTip(classBits ? QStringLiteral("%1 rows of the task's items as drawn, each with its class bit: y's "
                                                "bit is x's flipped with the channel's crossover")
                                     .arg(p.rows)
                               : QStringLiteral("%1 dialogues as drawn, tokens as words: x the first utterances "
                                                "(separated by /), y the next one")
                                     .arg(p.rows));
  strip_->show();
}

}  // namespace milab
