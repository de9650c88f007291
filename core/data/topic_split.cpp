#include "data/topic_split.h"

#include <QHash>
#include <QSet>

namespace milab {

TopicSplit splitTopics(const QList<QStringList>& textsPerTopic, int heldOutEvery) {
  QHash<QString, int> topicsOf;  // in how many topics a text appears
  for (const QStringList& texts : textsPerTopic)
    for (const QString& text : QSet<QString>(texts.begin(), texts.end())) ++topicsOf[text];
  TopicSplit out;
  for (int topic = 0; topic < textsPerTopic.size(); ++topic) {
    int kept = 0;
    QSet<QString> seen;
    for (const QString& text : textsPerTopic[topic]) {
      if (topicsOf.value(text) > 1 || seen.contains(text)) continue;
      seen.insert(text);
      const int part = kept++ % heldOutEvery == heldOutEvery - 1 ? 1 : 0;
      out.texts[part] << text;
      out.labels[part] << topic;
    }
  }
  return out;
}

}  // namespace milab
