// The window's file dialogs never open the files they list (gui/file_dialogs.h): Qt's own dialog did, to guess each
// file's type, and closing what it opened dropped SQLite's locks on the run history, so that another process
// deleted the history's -wal and -shm under the window (issue 44). Opens are counted by inotify on the file.
#include <sys/inotify.h>
#include <unistd.h>

#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileIconProvider>
#include <QFileSystemModel>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <functional>

#include "gui/file_dialogs.h"

using namespace milab;

namespace {

// Counts the times `path` is opened while `act` runs.
int opensDuring(const QString& path, const std::function<void()>& act) {
  const int fd = inotify_init1(IN_NONBLOCK);
  if (fd < 0 || inotify_add_watch(fd, QFile::encodeName(path).constData(), IN_OPEN) < 0) qFatal("inotify failed");
  act();
  int opens = 0;
  alignas(inotify_event) char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;)
    for (char* at = buffer; at < buffer + n; at += sizeof(inotify_event) + reinterpret_cast<inotify_event*>(at)->len)
      opens += (reinterpret_cast<inotify_event*>(at)->mask & IN_OPEN) != 0;
  close(fd);
  return opens;
}

// A file named like the history, holding what SQLite writes first, beside a folder.
QString historyLikeFile(const QTemporaryDir& tmp) {
  QDir(tmp.path()).mkdir("results");
  const QString path = tmp.filePath("history.sqlite-wal");  // a name no MIME glob decides
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(QByteArray("SQLite format 3\0", 16) + QByteArray(4080, '\0'));
  return path;
}

}  // namespace

class TestFileDialogs : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The check can see an open: Qt's own provider opens such a file to name its type; the dialogs' one does not.
  void theIconProviderNamesATypeWithoutOpeningTheFile() {
    QTemporaryDir tmp;
    const QString path = historyLikeFile(tmp);
    const QFileInfo info(path);
    const QFileIconProvider qts;
    QVERIFY(opensDuring(path, [&] { qts.type(info); }) > 0);
    QString type;
    QCOMPARE(opensDuring(path,
                         [&] {
                           type = entryOnlyIcons().type(info);
                           entryOnlyIcons().icon(info);
                         }),
             0);
    QCOMPARE(type, QString("sqlite-wal file"));
    QCOMPARE(entryOnlyIcons().type(QFileInfo(tmp.filePath("results"))), QString("Folder"));
  }

  // Each dialog is Qt's (not the desktop's, which guesses types the same way) with that provider, and listing a
  // folder that holds the history opens none of its files.
  void everyDialogListsWithoutOpening_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("open") << 0;
    QTest::newRow("save") << 1;
    QTest::newRow("folder") << 2;
  }

  void everyDialogListsWithoutOpening() {
    QFETCH(int, kind);
    QTemporaryDir tmp;
    const QString path = historyLikeFile(tmp);
    bool checked = false;
    const int opens = opensDuring(path, [&] {
      QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        const auto close = qScopeGuard([dialog] { dialog->reject(); });  // whatever fails below
        QVERIFY(dialog->testOption(QFileDialog::DontUseNativeDialog));
        QCOMPARE(static_cast<const QAbstractFileIconProvider*>(dialog->iconProvider()),
                 static_cast<const QAbstractFileIconProvider*>(&entryOnlyIcons()));
        // The listing is done once the folder is loaded and its entries' types are known.
        auto* model = dialog->findChild<QFileSystemModel*>();
        QVERIFY(model);
        QTRY_VERIFY(!model->index(tmp.filePath("results"), 2).data().toString().isEmpty());
        if (kind != 2) QTRY_VERIFY(!model->index(path, 2).data().toString().isEmpty());  // files are listed
        checked = true;
      });
      const QString chosen = kind == 0   ? askOpenFile(nullptr, "open", tmp.path())
                             : kind == 1 ? askSaveFile(nullptr, "save", tmp.filePath("out.csv"))
                                         : askFolder(nullptr, "folder", tmp.path());
      QCOMPARE(chosen, QString());  // rejected
    });
    QVERIFY(checked);
    QCOMPARE(opens, 0);
  }
};

QTEST_MAIN(TestFileDialogs)
#include "test_file_dialogs.moc"
