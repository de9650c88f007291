#pragma once
// The window's file dialogs (open a file, save one, choose a folder), every one of them a Qt dialog that never
// opens the files it lists.
//
// Why: Qt's own dialog guesses each listed file's type by opening it and reading its first bytes, and closing that
// descriptor drops every POSIX lock this process holds on the file. When the folder shown holds the run history,
// SQLite's locks go with it: another process's connection then believes it is the last one, checkpoints, and
// deletes the -wal and -shm files under this process's connections, which corrupts the database (issue 44). The
// icon provider here names a file's kind from its entry alone. The dialog is Qt's rather than the desktop's, whose
// type guess (GIO's) reads files in the same way.
#include <QString>

class QFileIconProvider;
class QWidget;

namespace milab {

// Each returns the path chosen, or "" when the user cancels.
QString askOpenFile(QWidget* parent, const QString& caption, const QString& folder, const QString& filter = {});
QString askSaveFile(QWidget* parent, const QString& caption, const QString& suggested, const QString& filter = {});
QString askFolder(QWidget* parent, const QString& caption, const QString& folder);

// The icon provider every dialog above uses: a file's icon and type name from its directory entry alone.
const QFileIconProvider& entryOnlyIcons();

}  // namespace milab
