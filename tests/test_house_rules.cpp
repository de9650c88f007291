// The shape of the house (issue 24): every source file under core/, app/ and plugins/ holds one job, says which
// in its opening comment (a .cpp may leave that to its header), and stays under 400 lines, so that no file grows
// back into the several jobs main_window.cpp or comparison_view.cpp once held; and a method family whose settings
// are typed options reads its ParamMap by key in its options file alone.
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
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

// The method folders whose settings are a typed options struct parsed once (<family>_options.cpp); the others
// still read their ParamMap where they use it (issue 24 item 3 converts them, one family at a time).
const QStringList kTypedFamilies{"plugins/ammi",    "plugins/club", "plugins/dime",        "plugins/doe",
                                 "plugins/flow-mi", "plugins/ksg",  "plugins/nce-density", "plugins/vision"};

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

  // A misspelt key compiles and reads a default: in a typed family only the options parser names keys.
  void typedFamiliesReadTheirParamMapOnlyInTheirOptionsFile() {
    // `params.value("K")`, `ctx.params.contains("critic")`: a ParamMap read by a literal key.
    static const QRegularExpression readByKey(QStringLiteral("params\\s*\\.\\s*(value|contains)\\s*\\(\\s*\""));
    QStringList readers;
    for (const QString& f : sourceFiles()) {
      const QString r = relative(f);
      if (!std::any_of(kTypedFamilies.cbegin(), kTypedFamilies.cend(),
                       [&](const QString& d) { return r.startsWith(d + "/"); }))
        continue;
      if (r.endsWith("_options.cpp")) continue;
      if (linesOf(f).join('\n').contains(readByKey)) readers << r;
    }
    QVERIFY2(readers.isEmpty(), qPrintable("reads a ParamMap by key outside its options file: " + readers.join(", ")));
  }
};

QTEST_GUILESS_MAIN(TestHouseRules)
#include "test_house_rules.moc"
