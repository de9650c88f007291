#pragma once
// Texts of several topics split into a training part and a held-out part, each text labelled by its topic: what the
// class channel's text pools and the hashing experiment's corpus read. A text found in more than one topic is left
// out of all (its label would not be a function of the text); a text repeated within one topic is kept once (it
// cannot be both trained on and held out); of each topic's kept texts, in order, every `heldOutEvery`-th is held out.
// Torch-free.
#include <QList>
#include <QStringList>
#include <QVector>

namespace milab {

struct TopicSplit {
  QStringList texts[2];   // [0] training, [1] held out; topic by topic, each in its file's order
  QVector<int> labels[2];  // the topic's index in the input, per text
};

// A topic's every fifth text is held out, as Fashion-MNIST's test split is a seventh of it: the class channel's and
// the hashing experiment's texts.
inline constexpr int kTopicHeldOutEvery = 5;

TopicSplit splitTopics(const QList<QStringList>& textsPerTopic, int heldOutEvery);

}  // namespace milab
