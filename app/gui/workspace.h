#pragma once
// What the window remembers between sessions (QSettings, ~/.config/milab/milab.conf): the window's geometry,
// the folder last used in a file dialog, and the experiment files opened recently.
#include <QByteArray>
#include <QString>
#include <QStringList>

namespace milab {

class Workspace {
 public:
  QByteArray geometry() const;
  void setGeometry(const QByteArray& geometry);
  QString lastFolder() const;  // "" before the first
  void rememberFolder(const QString& folder);
  QStringList recentFiles() const;         // newest first, existing files only, at most kRecent
  void rememberFile(const QString& path);  // bundled presets (":/...") are not files to remember

  static constexpr int kRecent = 8;
};

}  // namespace milab
