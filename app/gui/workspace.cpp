#include "gui/workspace.h"

#include <QFileInfo>
#include <QSettings>

namespace milab {

namespace {
const char* kOrganisation = "milab";
const char* kApplication = "milab";
}  // namespace

QByteArray Workspace::geometry() const {
  return QSettings(kOrganisation, kApplication).value("window/geometry").toByteArray();
}

void Workspace::setGeometry(const QByteArray& geometry) {
  QSettings(kOrganisation, kApplication).setValue("window/geometry", geometry);
}

QString Workspace::lastFolder() const {
  return QSettings(kOrganisation, kApplication).value("folders/last").toString();
}

void Workspace::rememberFolder(const QString& folder) {
  if (!folder.isEmpty())
    QSettings(kOrganisation, kApplication).setValue("folders/last", QFileInfo(folder).absoluteFilePath());
}

QStringList Workspace::recentFiles() const {
  QStringList out;
  for (const QString& f : QSettings(kOrganisation, kApplication).value("files/recent").toStringList())
    if (QFileInfo::exists(f) && out.size() < kRecent) out << f;
  return out;
}

void Workspace::rememberFile(const QString& path) {
  if (path.startsWith(':') || !QFileInfo::exists(path)) return;
  QSettings settings(kOrganisation, kApplication);
  QStringList recent = settings.value("files/recent").toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  settings.setValue("files/recent", recent.mid(0, kRecent));
  rememberFolder(QFileInfo(absolute).absolutePath());
}

}  // namespace milab
