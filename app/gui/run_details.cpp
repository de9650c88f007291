#include "gui/run_details.h"

#include <QDialog>
#include <QJsonDocument>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace milab {

namespace {

// "estimate 1.624 nats, interval [1.455, 1.793], truth 1.709": the reading in words above the record ("" without
// one).
QString readingLine(const QJsonObject& record) {
  const auto number = [&](const char* key) { return QString::number(record.value(key).toDouble(), 'f', 3); };
  if (!record.value("estimate").isDouble()) return {};
  QString line = QStringLiteral("estimate %1 nats").arg(number("estimate"));
  if (record.value("ci_low").isDouble() && record.value("ci_high").isDouble())
    line += QStringLiteral(", interval [%1, %2]").arg(number("ci_low"), number("ci_high"));
  if (record.value("true_mi").isDouble()) line += QStringLiteral(", truth %1").arg(number("true_mi"));
  return line + "\n";
}

}  // namespace

QString runDetailsText(const QList<RunDetail>& runs) {
  QStringList parts;
  for (const RunDetail& r : runs)
    parts << r.headline + "\n" + readingLine(r.record) + (r.reason.isEmpty() ? QString() : r.reason + "\n") + "\n" +
                 QString::fromUtf8(QJsonDocument(r.record).toJson(QJsonDocument::Indented));
  return parts.join("\n");
}

QWidget* openRunDetails(QWidget* parent, const QString& title, const QList<RunDetail>& runs) {
  auto* dialog = new QDialog(parent);
  dialog->setObjectName("runDetails");
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(title);
  auto* text = new QPlainTextEdit(runDetailsText(runs), dialog);
  text->setReadOnly(true);
  text->setLineWrapMode(QPlainTextEdit::WidgetWidth);  // a long reason wraps, never cut
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(text);
  dialog->resize(720, 520);
  dialog->show();
  return dialog;
}

}  // namespace milab
