#include "dialogue_options.h"

#include "tasks/task.h"

namespace milab::dialogue {

namespace {

// tokenWord's list has a word for each id, and the padding id (the vocabulary's size) stays within what a sequence
// encoder embeds.
constexpr int kWords = TaskCapabilities::kLargestTokenId;

}  // namespace

ParamSpecs dialogueParamSpecs() {
  const DialogueSetting d;
  return {
      ParamSpec::integer("vocabulary", d.vocabulary, 2, kWords, "tokens an utterance draws from"),
      ParamSpec::integer("utterance_length", d.length, 1, 16, "tokens per utterance"),
      ParamSpec::integer("topic_count", d.topics, 2, 64, "hidden topics, one per dialogue, kept for all of it"),
      ParamSpec::integer("turn_states", d.states, 2, 16, "hidden turn states, a Markov chain from utterance to utterance"),
      ParamSpec::integer("context", d.context, 1, 15, "k: x holds utterances 1 to k, x' utterance k, y utterance k + 1"),
      ParamSpec::integer("utterances", d.utterances, 2, 16, "utterances in a dialogue; context at most utterances - 1"),
      ParamSpec::real("topic_strength", d.strength, 0, 1, "the topic's share of each word's law (the rest is the turn's)"),
      ParamSpec::integer("law_seed", d.lawSeed, 0, 1000000, "draws the model's word laws and turn chain"),
  };
}

QString dialogueSettingFrom(const ParamMap& params, DialogueSetting* out) {
  DialogueSetting s;
  const auto integer = [&](const char* key, int fallback) { return params.value(key, fallback).toInt(); };
  s.vocabulary = integer("vocabulary", s.vocabulary);
  s.length = integer("utterance_length", s.length);
  s.topics = integer("topic_count", s.topics);
  s.states = integer("turn_states", s.states);
  s.context = integer("context", s.context);
  s.utterances = integer("utterances", s.utterances);
  s.strength = params.value("topic_strength", s.strength).toDouble();
  s.lawSeed = integer("law_seed", s.lawSeed);
  if (s.context > s.utterances - 1)
    return QStringLiteral("context: k = %1 must be in [1, utterances - 1] = [1, %2]: y is utterance k + 1")
        .arg(s.context)
        .arg(s.utterances - 1);
  *out = s;
  return {};
}

}  // namespace milab::dialogue
