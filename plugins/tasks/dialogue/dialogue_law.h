#pragma once
// DEMI's dialogue experiment (section 5.3) as a law with an exact MI: dialogues drawn from a hidden Markov model whose
// hidden state is a topic, drawn once and kept for the whole dialogue, and a turn state that changes at every
// utterance (a Markov chain). Given (topic t, turn state s) an utterance's tokens are independent draws from the
// emission p(w | t, s) = (1 - strength) turn_s(w) + strength topic_t(w), so `strength` says how much the topic shapes
// the words. The views are DEMI's: x the first k utterances, x' utterance k (the most recent), y utterance k + 1.
// The forward algorithm gives log p(y | x), log p(y | x') and log p(y) exactly for any tokens, so the task's truths
// are Monte Carlo means of exact log-ratios (dialogue_truth.h), and p(y | x') is sampled exactly: DEMI's "restricted
// context" negatives without a language model. Float64 tensors on the CPU; token ids are int64 in [0, vocabulary).
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <QStringList>
#include <cstdint>

namespace milab::dialogue {

struct DialogueSetting {
  int vocabulary = 16;     // tokens 0 .. vocabulary - 1
  int length = 4;          // tokens per utterance
  int topics = 8;          // hidden topics, uniform, kept for the whole dialogue
  int states = 3;          // turn states, a Markov chain over utterances
  int context = 3;         // k: x holds utterances 1 .. k, x' is utterance k, y is utterance k + 1
  int utterances = 4;      // utterances in a drawn dialogue (the window shows them all); k + 1 at least
  double strength = 0.6;   // the topic's share of each emission, in [0, 1]
  int lawSeed = 1;         // draws the turn and topic word distributions and the turn chain
};

// The model's parameters, fixed by the setting; its distributions are drawn from a 64-bit Mersenne twister seeded by
// lawSeed (raw integers to doubles: the same on every platform), each peaked (a uniform draw cubed, normalised).
class DialogueLaw {
 public:
  explicit DialogueLaw(const DialogueSetting& setting);
  const DialogueSetting& setting() const { return setting_; }

  // Dialogues [n, setting().utterances, length] of token ids, drawn with `gen` (a CPU generator).
  at::Tensor sampleDialogues(int64_t n, at::Generator& gen) const;
  // log p(utterance | t, s) for token ids [..., length] -> [..., topics, states].
  at::Tensor utteranceLogLikelihood(const at::Tensor& tokens) const;
  // log p(t, s_{k+1} | x) for x = utterances 1..k as ids [..., k, length] (the forward algorithm) -> [..., T, S].
  at::Tensor nextStateGivenContext(const at::Tensor& context) const;
  // log p(t, s_{k+1} | x') for x' = utterance k as ids [..., length] -> [..., T, S].
  at::Tensor nextStateGivenLast(const at::Tensor& last) const;
  // log p(t, s_{k+1}), the prior of utterance k + 1's hidden state -> [T, S].
  at::Tensor nextStatePrior() const;
  // log p(y | hidden-state law) = logsumexp over (t, s) of law + log p(y | t, s); broadcasts law [..., T, S] against
  // y's [..., length] leading axes.
  at::Tensor predictiveLogProbability(const at::Tensor& stateLaw, const at::Tensor& y) const;
  // perRow utterances drawn from the predictive of each row's hidden-state law [B, T, S] -> [B, perRow, length].
  at::Tensor samplePredictive(const at::Tensor& stateLaw, int64_t perRow, at::Generator& gen) const;

  // The emission p(w | t, s) [T, S, V], the turn chain's start [S] and transitions [S, S] (rows sum to 1).
  const at::Tensor& emission() const { return emission_; }
  const at::Tensor& turnStart() const { return turnStart_; }
  const at::Tensor& turnTransition() const { return transition_; }

 private:
  DialogueSetting setting_;
  at::Tensor emission_, logEmission_;  // [T, S, V]
  at::Tensor turnStart_, transition_, logTransition_;
  at::Tensor logTopicPrior_;            // [T]
  at::Tensor logTurnAtLast_, logTurnAtNext_;  // log p(s_k), log p(s_{k+1}) [S]
};

// A word for each token id, so that the window and the docs show dialogues as text.
QString tokenWord(int64_t id);
// Utterances [utterances, length] of ids as lines of words.
QStringList dialogueAsText(const at::Tensor& dialogue);

}  // namespace milab::dialogue
