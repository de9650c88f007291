#include "dialogue_task_plugin.h"

#include "dialogue_options.h"
#include "dialogue_task_model.h"

namespace milab {

QList<TaskInfo> DialogueTaskPlugin::tasks() const {
  TaskInfo t;
  t.id = "hmm-dialogue";
  t.displayName = "Dialogue (hidden Markov model)";
  t.family = "dialogue";
  t.summary = QStringLiteral(
                  "conversations of a hidden Markov model (a topic kept for the whole dialogue, a turn state per "
                  "utterance): x the first k utterances, x' utterance k, y utterance k + 1, as token ids; "
                  "I(x;y), I(x';y) and I(x;y|x') by Monte Carlo over %L1 exact log-ratios, with their standard errors")
                  .arg(qlonglong(dialogue::kTruthSamples));
  t.params = dialogue::dialogueParamSpecs();
  t.capabilities.subview = true;
  t.capabilities.pmi = true;
  t.capabilities.densities = true;
  t.capabilities.tokens = true;
  return {t};
}

QString DialogueTaskPlugin::validate(const TaskInfo& task, ParamMap* params) const {
  if (QString err = TaskPlugin::validate(task, params); !err.isEmpty()) return err;
  dialogue::DialogueSetting setting;
  return dialogue::dialogueSettingFrom(*params, &setting);
}

std::unique_ptr<TaskModel> DialogueTaskPlugin::build(const TaskInfo&, const ParamMap& params, std::uint64_t) const {
  dialogue::DialogueSetting setting;
  if (!dialogue::dialogueSettingFrom(params, &setting).isEmpty()) return nullptr;
  return std::make_unique<DialogueTaskModel>(setting);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_dialogue_task_plugin.cpp"
