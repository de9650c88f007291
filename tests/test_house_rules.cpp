// The shape of the house (issue 24): every source file under core/, app/ and plugins/ holds one job, says which
// in its opening comment (a .cpp may leave that to its header), and stays under 400 lines, so that no file grows
// back into the several jobs main_window.cpp or comparison_view.cpp once held; and settings are read from a ParamMap
// by key in options files alone (<family>_options.cpp: one parsing function per family, task or engine part), so a
// misspelt key cannot compile into a silent default anywhere else. In core/engine and plugins/ no function body is
// over 60 lines (issue 50): a run's stages, an estimator's step, a parser each read as a few named parts.
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>

#include "literal_defaults.h"

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

constexpr int kMaxFunctionLines = 60;

// The source with comments, string and character literals and preprocessor lines blanked (newlines kept), so that
// only the code's own braces and parentheses are left.
QString codeOnly(const QString& text) {
  QString out = text;
  enum { Code, Line, Block, String, Char } state = Code;
  bool lineStart = true;
  for (int i = 0; i < out.size(); ++i) {
    const QChar c = out[i], next = i + 1 < out.size() ? out[i + 1] : QChar();
    if (c == '\n') {
      if (state == Line) state = Code;
      lineStart = true;
      continue;
    }
    if (state == Code && lineStart && c == '#') state = Line;  // a preprocessor line: blank to its end
    if (!c.isSpace()) lineStart = false;
    switch (state) {
      case Code:
        if (c == '/' && next == '/')
          state = Line;
        else if (c == '/' && next == '*')
          state = Block;
        else if (c == '"')
          state = String;
        else if (c == '\'')
          state = Char;
        else
          continue;
        break;
      case Block:
        if (c == '*' && next == '/') out[i + 1] = ' ', ++i, state = Code;
        break;
      case String:
      case Char:
        if (c == '\\')
          out[i + 1] = ' ', ++i;
        else if (c == (state == String ? '"' : '\''))
          state = Code;
        break;
      case Line:
        break;
    }
    out[i] = ' ';
  }
  return out;
}

// Every function body in `text` longer than `limit` lines, as "signature (N lines)": a brace opened by a statement
// with a parenthesis that is not a declaration of a class, struct, union, enum or namespace (whose braces are seen
// through, so inline member functions count) and has no '=' before its first parenthesis (a lambda or array
// initialiser kept in a variable). Lambdas inside a function count as its lines.
QStringList longFunctions(const QString& text, int limit) {
  static const QRegularExpression scope(
      QStringLiteral("^\\s*(template\\s*<[^>]*>\\s*)?(class|struct|union|enum|namespace|extern)\\b"));
  const QString code = codeOnly(text);
  QStringList found;
  QString pending;  // the statement since the last ';', '{' or '}' outside any function
  int depth = 0, line = 1, bodyStart = 0;
  QString signature;
  for (const QChar c : code) {
    if (c == '\n') ++line;
    if (depth > 0) {
      if (c == '{') ++depth;
      if (c == '}' && --depth == 0 && line - bodyStart - 1 > limit)
        found << QStringLiteral("%1 (%2 lines)").arg(signature).arg(line - bodyStart - 1);
      continue;
    }
    if (c == '{') {
      const QString s = pending.simplified();
      const int paren = int(s.indexOf('('));
      const bool function = paren > 0 && !s.contains(scope) && !s.left(paren).contains('=');
      if (function) depth = 1, bodyStart = line, signature = s.left(100);
      pending.clear();  // else a scope, or the braces of a variable's initialiser: seen through
    } else if (c == '}' || c == ';') {
      pending.clear();
    } else {
      pending += c;
    }
  }
  return found;
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

  // Each default is declared once, in its options struct (issue 76): a ParamSpec takes it from the struct (`d.k`)
  // or a named constant, so a default and its key cannot disagree.
  void everyDefaultIsDeclaredOnce() {
    QStringList twice;
    for (const QString& f : sourceFiles()) {
      if (relative(f).startsWith("core/params/")) continue;  // the ParamSpec type itself
      for (const QString& key : house::literalDefaults(linesOf(f).join('\n'))) twice << relative(f) + ": " + key;
    }
    QVERIFY2(twice.isEmpty(), qPrintable("a ParamSpec default written as a literal:\n" + twice.join('\n')));
  }

  // The check itself sees a literal default of each shape, and passes a struct's or a constant's.
  void theDefaultCheckSeesLiterals() {
    using house::literalDefaults;
    QCOMPARE(literalDefaults("ParamSpec::integer(\"k\", 3, 1, 1000, \"neighbours, (KSG's k)\")"), {"\"k\""});
    QCOMPARE(literalDefaults("ParamSpec::real(\"lr\", 5e-4, 0.0, 1.0, \"Adam\", true, false)"), {"\"lr\""});
    QCOMPARE(literalDefaults("ParamSpec::integer(\"chunk\", 1 << 20, 1024, 1 << 28, \"\")"), {"\"chunk\""});
    QCOMPARE(literalDefaults("ParamSpec::choice(\"critic\", {\"learned\", \"oracle\"}, \"learned\", \"h\")"),
             {"\"critic\""});
    QCOMPARE(literalDefaults("ParamSpec::boolean(\"cubic\", false, \"y -> y^3\")"), {"\"cubic\""});
    QCOMPARE(literalDefaults("ParamSpec::text(\"file\", \"\", \"the table\")"), {"\"file\""});
    QCOMPARE(literalDefaults("layers.defaultValue = QStringLiteral(\"16,8\");"), {"layers.defaultValue"});
    QVERIFY(literalDefaults("ParamSpec::integer(\"k\", d.k, 1, 1000, \"3 neighbours\")").isEmpty());
    QVERIFY(literalDefaults("ParamSpec::integer(\"batch\", int(d.batch), 2, 4096, \"\")").isEmpty());
    QVERIFY(literalDefaults("ParamSpec::choice(\"form\", {\"a\", \"b\"}, d.a ? \"a\" : \"b\", \"\")").isEmpty());
    QVERIFY(literalDefaults("ParamSpec::integer(\"train_images\", kTrainImages, 100, kTrainImages, \"\")").isEmpty());
    QVERIFY(literalDefaults("layers.defaultValue = d.layersText();").isEmpty());
    QCOMPARE(literalDefaults("g2.params[1].defaultValue = 2.0;"), {"params[1].defaultValue"});
    QVERIFY(literalDefaults("withoutDefault(ParamSpec::integer(\"order_prior\", 0, 0, 12, \"auto\"))").isEmpty());
  }

  // Qt's file dialog reads the files it lists, which drops SQLite's locks on the run history (gui/file_dialogs.h):
  // every dialog goes through the one that reads none.
  void everyFileDialogReadsNoFile() {
    QStringList others;
    for (const QString& f : sourceFiles())
      if (!f.endsWith("/gui/file_dialogs.cpp") && linesOf(f).join('\n').contains("QFileDialog")) others << relative(f);
    QVERIFY2(others.isEmpty(), qPrintable("a QFileDialog outside gui/file_dialogs.cpp: " + others.join(", ")));
  }

  // Long functions hide their parts; the rule holds where the run's stages and the estimators live.
  void noFunctionInTheEngineOrAPluginIsOver60Lines() {
    QStringList tooLong;
    for (const QString& f : sourceFiles()) {
      const QString r = relative(f);
      if (!r.startsWith("core/engine/") && !r.startsWith("plugins/")) continue;
      for (const QString& fn : longFunctions(linesOf(f).join('\n'), kMaxFunctionLines)) tooLong << r + ": " + fn;
    }
    QVERIFY2(tooLong.isEmpty(), qPrintable("function bodies over 60 lines:\n" + tooLong.join('\n')));
  }

  // The function check counts bodies of every shape it is meant to, and nothing else.
  void theFunctionCheckSeesBodies() {
    const auto body = [](int lines) { return QString("  x();\n").repeated(lines); };
    const QString code =
        "namespace milab {\nnamespace {\nconst QStringList kNames{\"a\", \"b {\"};\n"
        "int shortOne(int a) {\n" +
        body(3) +
        "}\n}  // namespace\n"
        "QString Run::longOne(const QString& s,\n    int n) const {\n" +
        body(5) +
        "  if (n) {\n    y(\"}\");  // }\n  }\n}\n"
        "class A {\n public:\n  void inlineLong() {\n" +
        body(6) +
        "  }\n};\n"
        "const auto lambda = [](int) {\n" +
        body(9) + "};\n}  // namespace milab\n";
    const QStringList found = longFunctions(code, 4);
    QCOMPARE(found.size(), 2);
    QVERIFY2(found[0].startsWith("QString Run::longOne(const QString& s, int n) const (8 lines)"),
             qPrintable(found[0]));
    QVERIFY2(found[1].startsWith("void inlineLong() (6 lines)") || found[1].contains("inlineLong() (6 lines)"),
             qPrintable(found[1]));
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
