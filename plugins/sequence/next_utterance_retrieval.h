#pragma once
// DEMI's Table 3 on the dialogue task: a critic scored by next-utterance retrieval. Each of a fixed set of dialogues
// (drawn with a generator of its own, the same for every run) puts its true next utterance among N - 1 others,
// either random futures (other dialogues' y, from p(y)) or futures of its own last utterance (from p(y | x')), and
// the critic retrieves the true one when it scores it above every other. The task's exact PMI, ranked the same way,
// is the best any critic can do.
#include <ATen/core/Tensor.h>

#include <QList>
#include <functional>

#include "tasks/task.h"
#include "tasks/task_sampler.h"

namespace milab {

inline constexpr int kRetrievalCandidates = 10;  // the true next utterance and 9 others
inline constexpr int kRetrievalDialogues = 2000;

// Scores of every row's candidates: batch rows (x, x', y) and candidates [B, C, dimY], the true y first -> [B, C].
using CandidateScores = std::function<at::Tensor(const Batch& rows, const at::Tensor& candidates)>;

// The share of rows whose column 0 scores strictly above all their other columns ([B, C] scores).
double retrievedShare(const at::Tensor& scores);

// retrieval_random and retrieval_conditional for `score`, then the same two for the task's exact PMI
// (retrieval_random_exact, retrieval_conditional_exact).
QList<NamedValue> nextUtteranceRetrieval(const TaskSampler& task, const CandidateScores& score);

}  // namespace milab
