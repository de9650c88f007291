#pragma once
// A run's whole record in a window of its own: how it ended, its reason whole (a table's cell cuts it), then
// everything its summary or history row holds. Opened from a History row (double click) and from a grid heatmap's
// cell (a click), issue 79.
#include <QJsonObject>
#include <QList>
#include <QString>

class QWidget;

namespace milab {

struct RunDetail {
  QString headline;    // "run 12: infonce on gaussian2, failed"
  QString reason;      // whole; "" for none
  QJsonObject record;  // summary.json's or the history row's object
};

// The text the window shows for `runs` (one per run, in order).
QString runDetailsText(const QList<RunDetail>& runs);
// Opens it, non-modal, titled `title`; the window is deleted when closed. Returns it (object name "runDetails").
QWidget* openRunDetails(QWidget* parent, const QString& title, const QList<RunDetail>& runs);

}  // namespace milab
