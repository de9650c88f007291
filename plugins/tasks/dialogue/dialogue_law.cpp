#include "dialogue_law.h"

#include <ATen/ATen.h>

#include <random>
#include <vector>

namespace milab::dialogue {

namespace {

const at::TensorOptions kDouble = at::TensorOptions().dtype(at::kDouble);

// A distribution over n outcomes, each weight a uniform draw cubed (a few outcomes carry most of the mass), never 0.
std::vector<double> peaked(std::mt19937_64& rng, int n) {
  std::vector<double> w(static_cast<size_t>(n));
  double total = 0;
  for (double& v : w) {
    const double u = double(rng() >> 11) * 0x1.0p-53;  // 53 random bits: the same double on every platform
    v = u * u * u + 1e-6;
    total += v;
  }
  for (double& v : w) v /= total;
  return w;
}

at::Tensor tensorOf(const std::vector<double>& values, at::IntArrayRef shape) {
  return at::tensor(at::ArrayRef<double>(values), kDouble).reshape(shape);
}

// logsumexp over the previous turn state: law [..., T, S] through the transition [S, S'] -> [..., T, S'].
at::Tensor stepTurn(const at::Tensor& law, const at::Tensor& logTransition) {
  return (law.unsqueeze(-1) + logTransition).logsumexp(-2);
}

at::Tensor normalised(const at::Tensor& law) { return law - law.flatten(-2).logsumexp(-1).unsqueeze(-1).unsqueeze(-1); }

}  // namespace

DialogueLaw::DialogueLaw(const DialogueSetting& setting) : setting_(setting) {
  const int T = setting.topics, S = setting.states, V = setting.vocabulary;
  std::mt19937_64 rng(std::uint64_t(setting.lawSeed));
  std::vector<std::vector<double>> turnWords, topicWords;
  for (int s = 0; s < S; ++s) turnWords.push_back(peaked(rng, V));
  for (int t = 0; t < T; ++t) topicWords.push_back(peaked(rng, V));
  std::vector<double> emission;
  for (int t = 0; t < T; ++t)
    for (int s = 0; s < S; ++s)
      for (int w = 0; w < V; ++w)
        emission.push_back((1 - setting.strength) * turnWords[size_t(s)][size_t(w)] +
                           setting.strength * topicWords[size_t(t)][size_t(w)]);
  // Each turn state leans to the next one (a question, an answer, ...), the rest of its row peaked at random.
  std::vector<double> transition;
  for (int s = 0; s < S; ++s) {
    std::vector<double> row = peaked(rng, S);
    row[size_t((s + 1) % S)] += 1;
    for (double v : row) transition.push_back(v / 2);
  }
  emission_ = tensorOf(emission, {T, S, V});
  logEmission_ = emission_.log();
  turnStart_ = at::full({S}, 1.0 / S, kDouble);
  transition_ = tensorOf(transition, {S, S});
  logTransition_ = transition_.log();
  logTopicPrior_ = at::full({T}, -std::log(double(T)), kDouble);
  at::Tensor turn = turnStart_;
  for (int j = 1; j < setting.context; ++j) turn = turn.matmul(transition_);
  logTurnAtLast_ = turn.log();
  logTurnAtNext_ = turn.matmul(transition_).log();
}

at::Tensor DialogueLaw::sampleDialogues(int64_t n, at::Generator& gen) const {
  const int S = setting_.states;
  const at::Tensor byState = emission_.reshape({-1, setting_.vocabulary});
  const at::Tensor topic = at::randint(setting_.topics, {n}, gen, at::TensorOptions().dtype(at::kLong));
  at::Tensor turn = at::randint(S, {n}, gen, at::TensorOptions().dtype(at::kLong));
  std::vector<at::Tensor> utterances;
  for (int j = 0; j < setting_.utterances; ++j) {
    if (j > 0) turn = at::multinomial(transition_.index_select(0, turn), 1, true, gen).squeeze(1);
    utterances.push_back(at::multinomial(byState.index_select(0, topic * S + turn), setting_.length, true, gen));
  }
  return at::stack(utterances, 1);
}

at::Tensor DialogueLaw::utteranceLogLikelihood(const at::Tensor& tokens) const {
  const int T = setting_.topics, S = setting_.states;
  const at::Tensor perToken = logEmission_.reshape({T * S, -1}).t().index_select(0, tokens.reshape(-1).to(at::kLong));
  std::vector<int64_t> shape = tokens.sizes().vec();
  shape.push_back(T);
  shape.push_back(S);
  return perToken.reshape(shape).sum(-3);
}

at::Tensor DialogueLaw::nextStateGivenContext(const at::Tensor& context) const {
  const at::Tensor likelihood = utteranceLogLikelihood(context);  // [..., k, T, S]
  const int64_t k = context.size(-2);
  at::Tensor alpha = logTopicPrior_.unsqueeze(1) + turnStart_.log() + likelihood.select(-3, 0);
  for (int64_t j = 1; j < k; ++j) alpha = stepTurn(alpha, logTransition_) + likelihood.select(-3, j);
  return normalised(stepTurn(alpha, logTransition_));
}

at::Tensor DialogueLaw::nextStateGivenLast(const at::Tensor& last) const {
  const at::Tensor alpha = logTopicPrior_.unsqueeze(1) + logTurnAtLast_ + utteranceLogLikelihood(last);
  return normalised(stepTurn(alpha, logTransition_));
}

at::Tensor DialogueLaw::nextStatePrior() const { return logTopicPrior_.unsqueeze(1) + logTurnAtNext_; }

at::Tensor DialogueLaw::predictiveLogProbability(const at::Tensor& stateLaw, const at::Tensor& y) const {
  return (stateLaw + utteranceLogLikelihood(y)).flatten(-2).logsumexp(-1);
}

at::Tensor DialogueLaw::samplePredictive(const at::Tensor& stateLaw, int64_t perRow, at::Generator& gen) const {
  const int64_t rows = stateLaw.size(0);
  const at::Tensor states = at::multinomial(stateLaw.reshape({rows, -1}).exp(), perRow, true, gen);
  const at::Tensor byState = emission_.reshape({-1, setting_.vocabulary});
  return at::multinomial(byState.index_select(0, states.reshape(-1)), setting_.length, true, gen)
      .reshape({rows, perRow, setting_.length});
}

QString tokenWord(int64_t id) {
  static const QStringList words = {"tea",  "rain", "boat", "map",  "song", "lamp", "bread", "wind",
                                    "stone", "milk", "door", "fish", "snow", "book", "salt",  "bell",
                                    "moon", "clay", "rope", "corn", "silk", "wolf", "pine",  "coin",
                                    "horn", "mint", "reed", "tide", "fern", "dust", "hive",  "kite"};
  return id >= 0 && id < words.size() ? words[int(id)] : QStringLiteral("w%1").arg(id);
}

QStringList dialogueAsText(const at::Tensor& dialogue) {
  const at::Tensor ids = dialogue.to(at::kLong).contiguous();
  QStringList lines;
  for (int64_t j = 0; j < ids.size(0); ++j) {
    QStringList words;
    for (int64_t i = 0; i < ids.size(1); ++i) words << tokenWord(ids[j][i].item<int64_t>());
    lines << words.join(' ');
  }
  return lines;
}

}  // namespace milab::dialogue
