// The shape of the house (issue 24): every source file under core/, app/ and plugins/ holds one job, says which
// in its opening comment (a .cpp may leave that to its header), and stays under 400 lines, so that no file grows
// back into the several jobs main_window.cpp or comparison_view.cpp once held.
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

namespace {

constexpr int kMaxLines = 400;

QStringList sourceFiles() {
  QStringList files;
  for (const char* folder : {"core", "app", "plugins"}) {
    QDirIterator it(QStringLiteral(MILAB_SOURCE_DIR "/") + folder, {"*.cpp", "*.h"}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) files << it.next();
  }
  files.sort();
  return files;
}

QStringList linesOf(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll()).split('\n');
}

// The file opens with a comment, on its first line or right after `#pragma once`.
bool opensWithComment(const QString& path) {
  const QStringList lines = linesOf(path);
  const int first = !lines.isEmpty() && lines[0].trimmed() == "#pragma once" ? 1 : 0;
  return lines.size() > first && lines[first].startsWith("//");
}

QString relative(const QString& path) { return QDir(MILAB_SOURCE_DIR).relativeFilePath(path); }

}  // namespace

class TestHouseRules : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void theTreeIsRead() { QVERIFY(sourceFiles().size() > 100); }

  void noSourceFileIsOver400Lines() {
    QStringList tooLong;
    for (const QString& f : sourceFiles())
      if (const int n = int(linesOf(f).size()) - 1; n > kMaxLines)
        tooLong << QStringLiteral("%1 (%2)").arg(relative(f)).arg(n);
    QVERIFY2(tooLong.isEmpty(), qPrintable("over 400 lines: " + tooLong.join(", ")));
  }

  void everySourceFileSaysItsJob() {
    QStringList silent;
    for (const QString& f : sourceFiles()) {
      if (opensWithComment(f)) continue;
      const QString header = f.left(f.size() - 4) + ".h";  // a .cpp whose header says it
      if (f.endsWith(".cpp") && QFileInfo::exists(header) && opensWithComment(header)) continue;
      silent << relative(f);
    }
    QVERIFY2(silent.isEmpty(), qPrintable("no opening comment: " + silent.join(", ")));
  }
};

QTEST_GUILESS_MAIN(TestHouseRules)
#include "test_house_rules.moc"
