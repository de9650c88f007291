#pragma once
// The dialogue task's keys (dialogue_law.h's DialogueSetting), their ranges, and the cross-field rule on k.
#include "dialogue_law.h"
#include "params/param_spec.h"

namespace milab::dialogue {

ParamSpecs dialogueParamSpecs();
// The setting of validated params; "" or one line naming the key and its allowed range.
QString dialogueSettingFrom(const ParamMap& params, DialogueSetting* out);

}  // namespace milab::dialogue
