#pragma once
// The dialogue task (dialogue_law.h) as the lab sees it. Its views are token ids as float columns: x the first k
// utterances (k x utterance_length columns, utterance after utterance), y utterance k + 1, and x' utterance k written
// in x's shape with the earlier utterances' columns set to the padding id (the vocabulary's size), so that x' has
// x's columns, as every subview in the lab does, and one sequence encoder reads both. It offers exact samples of
// p(y | x'), the exact PMI of both critics and log p(y); its truths are Monte Carlo (dialogue_truth.h).
#include <memory>

#include "dialogue_law.h"
#include "dialogue_truth.h"
#include "tasks/task.h"

namespace milab {

class DialogueTaskModel final : public TaskModel {
 public:
  explicit DialogueTaskModel(const dialogue::DialogueSetting& setting);

  int dimX() const override;
  int dimY() const override { return law_->setting().length; }
  bool hasSubview() const override { return true; }
  double totalMi() const override { return truths_.total.mean; }
  double totalMiStandardError() const override { return truths_.total.standardError; }
  double conditionalMi() const override { return truths_.conditional.mean; }
  QList<NamedValue> truths() const override;
  // y depends on x only through the hidden state of utterance k + 1: at most log(topics x states).
  double largestMi() const override;
  // `rows` dialogues: x's utterances as text, then y's.
  ItemsPreview previewItems(int rows, int items, std::uint64_t seed) const override;
  std::unique_ptr<TaskSampler> sampler(c10::Device device) const override;

  const dialogue::DialogueTruths& monteCarloTruths() const { return truths_; }

 private:
  std::shared_ptr<const dialogue::DialogueLaw> law_;
  dialogue::DialogueTruths truths_;
};

}  // namespace milab
