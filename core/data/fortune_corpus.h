#pragma once
// Debian's `fortunes` package as a text corpus with topic labels: each topic is one file of
// /usr/share/games/fortunes (or $MILAB_FORTUNES) whose texts are separated by lines holding only "%", the topic its
// file's name. About 15,000 texts in some 40 topics, English, offline. Torch-free.
#include <QString>
#include <QStringList>

namespace milab {

// $MILAB_FORTUNES when set, else Debian's folder.
QString fortunesDir();

// The topics `dir` holds: every file with its strfile index ("<topic>.dat") beside it, sorted. Empty when none.
QStringList fortuneTopics(const QString& dir);

// "" when `dir` holds at least one topic, else one line saying how to install the corpus.
QString checkFortunes(const QString& dir);

// The texts of one topic, each trimmed, empty ones left out, in the file's order. "" or one line.
QString loadFortuneTopic(const QString& dir, const QString& topic, QStringList* texts);

}  // namespace milab
