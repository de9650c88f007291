#pragma once
// Finds the ParamSpec declarations whose default is written as a literal (`ParamSpec::integer("k", 3, ...)`,
// `spec.defaultValue = "16,8"`): such a default is declared a second time beside its options struct's member and can
// drift from it (issue 76: mmg's dropout read 0.5 in its struct and 0.35 in its key). The house rule
// (test_house_rules) holds that every default is the struct's (`d.k`) or a named constant.
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace house {

// The arguments of the call whose '(' ends just before `from`, split at its own commas (not those inside
// brackets, braces or string literals), up to its closing ')'.
inline QStringList callArguments(const QString& text, int from) {
  QStringList args;
  QString current;
  int depth = 0;
  for (int i = from; i < text.size(); ++i) {
    const QChar c = text[i];
    if (c == '"') {  // a string literal, escapes and all, kept whole
      int j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      current += text.mid(i, j - i + 1);
      i = j;
      continue;
    }
    if (depth == 0 && (c == ',' || c == ')')) {
      args << current.trimmed();
      current.clear();
      if (c == ')') return args;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    current += c;
  }
  return args;
}

// A number, a bool, a string or an arithmetic of numbers (`1 << 20`): no name an options struct could hold.
inline bool isLiteral(const QString& expression) {
  static const QRegularExpression literal(QStringLiteral(
      "^(?:[-+]?[0-9][0-9.eE+\\-xX<\\s()]*|true|false|(?:QStringLiteral\\()?\\s*\"(?:[^\"\\\\]|\\\\.)*\"\\s*\\)?)$"));
  return literal.match(expression.trimmed()).hasMatch();
}

// The keys (as written: `"k"`) of the declarations in `text` whose default is a literal.
inline QStringList literalDefaults(const QString& text) {
  static const QRegularExpression call(QStringLiteral("ParamSpec::(integer|real|boolean|choice|text)\\s*\\("));
  static const QRegularExpression assigned(QStringLiteral("([\\w\\[\\]]+)\\.defaultValue\\s*=\\s*([^;]+);"));
  QStringList found;
  for (auto it = call.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    static const QRegularExpression unset(QStringLiteral("withoutDefault\\(\\s*$"));
    if (text.left(int(m.capturedStart())).contains(unset)) continue;  // its value only shapes the form's field
    const QStringList args = callArguments(text, int(m.capturedEnd()));
    const int defaultAt = m.captured(1) == "choice" ? 2 : 1;  // choice(name, {choices}, default, help)
    if (args.size() > defaultAt && isLiteral(args[defaultAt])) found << args[0];
  }
  for (auto it = assigned.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    if (isLiteral(m.captured(2))) found << m.captured(1) + ".defaultValue";
  }
  return found;
}

}  // namespace house
