#include "engine/json_text.h"

#include <QList>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cctype>

namespace milab {

namespace {

bool isNumberCharacter(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-'; }

// A value cut for a message: a 200 kB literal must not become a 200 kB line.
QString shortened(const QByteArray& token) {
  constexpr int kMax = 40;
  return token.size() <= kMax ? QString::fromUtf8(token)
                              : QStringLiteral("%1... (%2 characters)").arg(QString::fromUtf8(token.left(kMax))).arg(token.size());
}

}  // namespace

QString jsonErrorLine(const QByteArray& json, const QJsonParseError& error, const QString& where) {
  const int offset = std::clamp(error.offset, 0, int(json.size()));
  if (error.error == QJsonParseError::IllegalNumber) {
    // Qt's offset lies at the start or the end of the literal: widen it to the whole token.
    int begin = offset, end = offset;
    while (begin > 0 && isNumberCharacter(json[begin - 1])) --begin;
    while (end < json.size() && isNumberCharacter(json[end])) ++end;
    static const QRegularExpression lastKey(QStringLiteral("\"((?:[^\"\\\\]|\\\\.)*)\"\\s*:"));
    QString key;
    for (const QRegularExpressionMatch& m : lastKey.globalMatch(QString::fromUtf8(json.left(begin)))) key = m.captured(1);
    if (!key.isEmpty())
      return QStringLiteral("%1: %2 is not a JSON number in %3 (NaN, Infinity and numbers a double cannot hold, "
                            "such as 1e400 or 1e-400, are refused)")
          .arg(key, shortened(json.mid(begin, end - begin)), where);
  }
  return QStringLiteral("experiment: %1 is not valid JSON (%2 at offset %3)").arg(where, error.errorString()).arg(offset);
}

QString firstNonJsonNumber(const QByteArray& json, const QString& where) {
  static const QRegularExpression number(QStringLiteral("^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$"));
  QString key, lastString;  // the key whose value (or list of values) is being read; the last string seen
  for (qsizetype i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') {
      const qsizetype start = i + 1;
      for (++i; i < json.size() && json[i] != '"'; ++i)
        if (json[i] == '\\') ++i;  // an escaped character, a quote included
      lastString = QString::fromUtf8(json.mid(start, i - start));
    } else if (c == ':') {
      key = lastString;
    } else if (c == '{' || c == '}') {
      key.clear();
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
      qsizetype end = i;
      while (end < json.size() && isNumberCharacter(json[end])) ++end;
      const QByteArray token = json.mid(i, end - i);
      if (!number.match(QString::fromUtf8(token)).hasMatch())
        return QStringLiteral("%1: %2 is not a JSON number in %3 (JSON writes .5 as 0.5 and 5. as 5 or 5.0, "
                              "with no leading zeros or '+' sign)")
            .arg(key.isEmpty() ? QStringLiteral("experiment") : key, shortened(token), where);
      i = end - 1;
    }
  }
  return {};
}

QString firstDuplicateKey(const QByteArray& json) {
  struct Frame {
    bool object = false;
    bool expectingKey = false;
    QSet<QByteArray> keys;
  };
  QList<Frame> stack;
  for (qsizetype i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '{' || c == '[') {
      stack.append(Frame{c == '{', c == '{', {}});
    } else if (c == '}' || c == ']') {
      if (!stack.isEmpty()) stack.removeLast();
    } else if (c == ',') {
      if (!stack.isEmpty() && stack.last().object) stack.last().expectingKey = true;
    } else if (c == '"') {
      const qsizetype start = i + 1;
      for (++i; i < json.size() && json[i] != '"'; ++i)
        if (json[i] == '\\') ++i;  // an escaped character, a quote included
      if (stack.isEmpty() || !stack.last().expectingKey) continue;  // a value
      const QByteArray key = json.mid(start, i - start);
      if (stack.last().keys.contains(key)) return QString::fromUtf8(key);
      stack.last().keys.insert(key);
      stack.last().expectingKey = false;
    }
  }
  return {};
}

}  // namespace milab
