#pragma once
// What QJsonDocument does not say about a user's JSON text: which key a number it refused belongs to, and keys
// given twice in one object (QJsonDocument silently keeps the last). Torch-free.
#include <QByteArray>
#include <QJsonParseError>
#include <QString>

namespace milab {

// The parse error as one line that names the key when it can, e.g. "mi: NaN is not a JSON number ...";
// otherwise "not valid JSON (ERROR at offset N)". `where` names the file ("'exp.json'").
QString jsonErrorLine(const QByteArray& json, const QJsonParseError& error, const QString& where);

// One line naming the key of the first number literal that RFC 8259 refuses and Qt's parser takes (".5", "5.",
// ".5e1"), or that Qt refuses with a misleading message ("08": "unterminated object"); "" when every literal is a
// JSON number. Safe on text that is not valid JSON: it only tells strings from the rest.
QString firstNonJsonNumber(const QByteArray& json, const QString& where);

// The first key given twice within one object of valid JSON `json`, or "" when none is.
QString firstDuplicateKey(const QByteArray& json);

}  // namespace milab
