// Core is a library of shared machinery: it asks methods and tasks for capabilities (MethodInfo, TaskCapabilities,
// interfaces such as MarkovEncoder and RepresentationProbe) and never names one. This test reads every source
// file under core/ and fails on a string literal equal to the id of a method or a task the plugins provide
// (comments aside), so a new `if (method == "...")` in core cannot land unseen.
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include "method/method_registry.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

// The file's text without // and /* */ comments (string literals kept, so a "//" inside one is not a comment).
QString withoutComments(const QString& text) {
  QString out;
  out.reserve(text.size());
  enum { Code, String, Char, Line, Block } state = Code;
  for (int i = 0; i < text.size(); ++i) {
    const QChar c = text[i], next = i + 1 < text.size() ? text[i + 1] : QChar();
    switch (state) {
      case Code:
        if (c == '/' && next == '/')
          state = Line, ++i;
        else if (c == '/' && next == '*')
          state = Block, ++i;
        else {
          if (c == '"') state = String;
          if (c == '\'') state = Char;
          out += c;
        }
        break;
      case String:
      case Char:
        out += c;
        if (c == '\\')
          out += next, ++i;
        else if ((state == String && c == '"') || (state == Char && c == '\''))
          state = Code;
        break;
      case Line:
        if (c == '\n') state = Code, out += c;
        break;
      case Block:
        if (c == '*' && next == '/') state = Code, ++i;
        break;
    }
  }
  return out;
}

}  // namespace

class TestCoreNamesNothing : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    registry_.loadDefault();
    QVERIFY(registry_.ids().size() > 20);
    QVERIFY(availableTasks().size() > 40);
  }

  // The scan itself: a literal in code is found, one in a comment is not.
  void commentsAreSkippedLiteralsAreNot() {
    const QString code = withoutComments("x = \"demi\"; // \"infonce\"\n/* \"ksg\" */ y = \"a//b\";");
    QVERIFY(code.contains("\"demi\""));
    QVERIFY(!code.contains("\"infonce\""));
    QVERIFY(!code.contains("\"ksg\""));
    QVERIFY(code.contains("\"a//b\""));
  }

  void coreSourcesNameNoMethodAndNoTask() {
    QStringList ids = registry_.ids();
    for (const TaskInfo& t : availableTasks()) ids << t.id;
    const QString root = QStringLiteral(MILAB_SOURCE_DIR);
    QStringList found;
    int files = 0;
    QDirIterator it(root + "/core", {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString path = it.next(), relative = path.mid(root.size() + 1);
      QFile f(path);
      QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
      const QString code = withoutComments(QString::fromUtf8(f.readAll()));
      ++files;
      for (const QString& id : ids)
        if (code.contains('"' + id + '"')) found << QStringLiteral("%1 names \"%2\"").arg(relative, id);
    }
    QVERIFY2(files > 100, qPrintable(QString::number(files)));
    QVERIFY2(found.isEmpty(), qPrintable(found.join("; ")));
  }

 private:
  MethodRegistry registry_;
};

QTEST_GUILESS_MAIN(TestCoreNamesNothing)
#include "test_core_names_nothing.moc"
