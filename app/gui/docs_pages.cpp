#include "gui/docs_pages.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QStringList>

namespace milab {

QString docsFolderLookedIn() {
  const QString env = qEnvironmentVariable("MILAB_DOCS_DIR");
  return QDir::cleanPath(!env.isEmpty() ? env
                                        : QDir(QCoreApplication::applicationDirPath()).filePath("../share/doc/milab"));
}

QString docsFolder() {
  const QString folder = docsFolderLookedIn();
  return QFileInfo(QDir(folder).filePath("concepts.md")).isFile() ? QDir(folder).canonicalPath() : QString();
}

QString methodDocSection(const QString& methodsMarkdown, const QString& id) {
  // The id as a word of its own, in any case ("AMMI" for ammi), not inside another id ("demi" in "demi-bo").
  const QRegularExpression named(QStringLiteral("(?<![\\w-])%1(?![\\w-])").arg(QRegularExpression::escape(id)),
                                 QRegularExpression::CaseInsensitiveOption);
  QStringList order;
  QHash<QString, int> mentions;
  QString heading;
  bool fenced = false;
  for (const QString& line : methodsMarkdown.split('\n')) {
    if (line.trimmed().startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    if (line.startsWith('#')) {
      heading = line.mid(line.indexOf(' ') + 1).trimmed();
      continue;
    }
    int n = 0;
    for (auto it = named.globalMatch(line); it.hasNext(); it.next()) ++n;
    if (n == 0) continue;
    if (!mentions.contains(heading)) order << heading;
    mentions[heading] += n;
  }
  QString best;
  for (const QString& section : order)  // the earlier section on a tie
    if (best.isNull() || mentions[section] > mentions[best]) best = section;
  return best;
}

QString methodDocReference(const QString& id) {
  static const QString methods = [] {
    const QString folder = docsFolder();
    QFile f(QDir(folder).filePath("methods.md"));
    return !folder.isEmpty() && f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
  }();
  // Each method's section is found once: the form asks again for every method at every change of task.
  static QHash<QString, QString> sections;
  const auto known = sections.constFind(id);
  const QString section = known != sections.cend() ? *known : *sections.insert(id, methodDocSection(methods, id));
  return section.isEmpty() ? QString()
                           : QCoreApplication::translate("milab", "methods.md, \"%1\" (Help > Methods)").arg(section);
}

QString headingAnchor(const QString& heading) {
  static const QRegularExpression dropped(QStringLiteral("[^\\w\\- ]"));
  return heading.trimmed().toLower().remove(dropped).replace(' ', '-');
}

QString methodToolTip(const QString& id, const QString& summary) {
  // Rich text, so that Qt wraps a long summary instead of running it off the screen.
  const QString where = methodDocReference(id);
  return QStringLiteral("<p>%1</p>").arg(summary.toHtmlEscaped()) +
         (where.isEmpty() ? QString() : QStringLiteral("<p>In the docs: %1</p>").arg(where.toHtmlEscaped()));
}

}  // namespace milab
