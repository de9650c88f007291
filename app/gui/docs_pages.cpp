#include "gui/docs_pages.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringList>

namespace milab {

QString docsFolder() {
  const QString env = qEnvironmentVariable("MILAB_DOCS_DIR");
  const QString folder =
      !env.isEmpty() ? env : QDir(QCoreApplication::applicationDirPath()).filePath("../share/doc/milab");
  return QFileInfo(QDir(folder).filePath("concepts.md")).isFile() ? QDir(folder).canonicalPath() : QString();
}

QString methodDocSection(const QString& methodsMarkdown, const QString& id) {
  const QString row = QStringLiteral("| %1 |").arg(id), code = QStringLiteral("`%1`").arg(id);
  QString heading;
  bool fenced = false;
  for (const QString& line : methodsMarkdown.split('\n')) {
    if (line.trimmed().startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    if (line.startsWith('#')) {
      heading = line.mid(line.indexOf(' ') + 1).trimmed();
      continue;
    }
    if (line.startsWith(row) || line.contains(code)) return heading;
  }
  return {};
}

QString methodDocReference(const QString& id) {
  static const QString methods = [] {
    QFile f(QDir(docsFolder()).filePath("methods.md"));
    return !docsFolder().isEmpty() && f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
  }();
  const QString section = methodDocSection(methods, id);
  return section.isEmpty() ? QString()
                           : QCoreApplication::translate("milab", "methods.md, \"%1\" (Help > Methods)").arg(section);
}

QString methodToolTip(const QString& id, const QString& summary) {
  const QString where = methodDocReference(id);
  return where.isEmpty() ? summary : QStringLiteral("%1\n\nIn the docs: %2").arg(summary, where);
}

}  // namespace milab
