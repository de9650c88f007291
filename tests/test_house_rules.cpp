// The shape of the house (issue 24): every source file under core/, app/ and plugins/ holds one job, says which
// in its opening comment (a .cpp may leave that to its header), and stays under 400 lines, so that no file grows
// back into the several jobs main_window.cpp or comparison_view.cpp once held; and settings are read from a ParamMap
// by key in options files alone (<family>_options.cpp: one parsing function per family, task or engine part), so a
// misspelt key cannot compile into a silent default anywhere else.
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

// The ParamMaps a file can reach: every name it declares with that type (`const ParamMap& p`, `ParamMap sweep`),
// and the ParamMap members of the lab's structs (RunSpec::taskParams, EstimatorContext::params, ...).
QStringList paramMapNames(const QString& text) {
  static const QRegularExpression declared(
      QStringLiteral("\\bParamMap\\s*[&*]?\\s*(?:const\\s*)?[&*]?\\s*([A-Za-z_]\\w*)"));
  QStringList names{"params", "taskParams", "methodParams", "sweep"};
  for (auto it = declared.globalMatch(text); it.hasNext();) names << it.next().captured(1);
  names.removeDuplicates();
  return names;
}

// A read of one of them by a literal key: `params.value("K")`, `spec.taskParams.contains(QStringLiteral("dim"))`.
bool readsParamMapByKey(const QString& text) {
  const QRegularExpression read(QStringLiteral("\\b(%1)\\s*(\\.|->)\\s*(value|contains|constFind|find)\\s*\\(\\s*"
                                               "(QStringLiteral\\(\\s*)?\"")
                                    .arg(paramMapNames(text).join('|')));
  return text.contains(read);
}

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

  // A misspelt key compiles and reads a default: only an options file's parser names keys.
  void noFileReadsAParamMapByKeyOutsideAnOptionsFile() {
    QStringList readers;
    for (const QString& f : sourceFiles()) {
      if (f.endsWith("_options.cpp")) continue;
      if (readsParamMapByKey(linesOf(f).join('\n'))) readers << relative(f);
    }
    QVERIFY2(readers.isEmpty(), qPrintable("reads a ParamMap by key outside an options file: " + readers.join(", ")));
  }

  // Qt's file dialog reads the files it lists, which drops SQLite's locks on the run history (gui/file_dialogs.h):
  // every dialog goes through the one that reads none.
  void everyFileDialogReadsNoFile() {
    QStringList others;
    for (const QString& f : sourceFiles())
      if (!f.endsWith("/gui/file_dialogs.cpp") && linesOf(f).join('\n').contains("QFileDialog")) others << relative(f);
    QVERIFY2(others.isEmpty(), qPrintable("a QFileDialog outside gui/file_dialogs.cpp: " + others.join(", ")));
  }

  // The check itself sees each shape of read it is meant to see, and not a write or a JSON object's read.
  void theReadCheckSeesReads() {
    QVERIFY(readsParamMapByKey("const int K = ctx.params.value(\"K\").toInt();"));
    QVERIFY(readsParamMapByKey("if (spec.taskParams.contains(QStringLiteral(\"dim\")))"));
    QVERIFY(readsParamMapByKey("QString f(const ParamMap& p) { return p.value(\"file\").toString(); }"));
    QVERIFY(readsParamMapByKey("void g(ParamMap* q) { q->value(\"mi\"); }"));
    QVERIFY(!readsParamMapByKey("oracle.methodParams.insert(\"critic\", \"oracle\");"));
    QVERIFY(!readsParamMapByKey("const QJsonObject o; o.value(\"mi\");"));
    QVERIFY(!readsParamMapByKey("params.value(key)"));
  }
};

QTEST_GUILESS_MAIN(TestHouseRules)
#include "test_house_rules.moc"
