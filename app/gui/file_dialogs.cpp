// The window's file dialogs through one QFileDialog whose icon provider never opens a file (file_dialogs.h says
// why: opening and closing the history's file drops SQLite's locks).
#include "gui/file_dialogs.h"

#include <QFileDialog>
#include <QFileIconProvider>

namespace milab {

namespace {

// Icons and type names from the directory entry alone. QFileIconProvider's own go by MIME type, whose guess
// reads the file's first bytes when the name does not decide.
class EntryOnlyIconProvider : public QFileIconProvider {
 public:
  QIcon icon(const QFileInfo& info) const override {
    return QFileIconProvider::icon(info.isDir() ? QAbstractFileIconProvider::Folder : QAbstractFileIconProvider::File);
  }
  QString type(const QFileInfo& info) const override {
    if (info.isDir()) return QObject::tr("Folder");
    return info.suffix().isEmpty() ? QObject::tr("File") : QObject::tr("%1 file").arg(info.suffix());
  }
};

QString ask(QWidget* parent, const QString& caption, const QString& start, const QString& filter,
            QFileDialog::AcceptMode accept, QFileDialog::FileMode mode) {
  QFileDialog dialog(parent, caption, start, filter);
  dialog.setOption(QFileDialog::DontUseNativeDialog);
  // The dialog keeps a pointer to it: one provider outlives every dialog, and is never changed through it.
  dialog.setIconProvider(const_cast<QFileIconProvider*>(&entryOnlyIcons()));
  dialog.setAcceptMode(accept);
  dialog.setFileMode(mode);
  if (mode == QFileDialog::Directory) dialog.setOption(QFileDialog::ShowDirsOnly);
  if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
  return dialog.selectedFiles().first();
}

}  // namespace

const QFileIconProvider& entryOnlyIcons() {
  static const EntryOnlyIconProvider provider;
  return provider;
}

QString askOpenFile(QWidget* parent, const QString& caption, const QString& folder, const QString& filter) {
  return ask(parent, caption, folder, filter, QFileDialog::AcceptOpen, QFileDialog::ExistingFile);
}

QString askSaveFile(QWidget* parent, const QString& caption, const QString& suggested, const QString& filter) {
  return ask(parent, caption, suggested, filter, QFileDialog::AcceptSave, QFileDialog::AnyFile);
}

QString askFolder(QWidget* parent, const QString& caption, const QString& folder) {
  return ask(parent, caption, folder, {}, QFileDialog::AcceptOpen, QFileDialog::Directory);
}

}  // namespace milab
