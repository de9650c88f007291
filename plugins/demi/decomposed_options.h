#pragma once
// The settings of DEMI and its variants: the critic's (CriticOptions), the evaluation protocol and DEMI-SIR's pool
// M, declared here with their ParamSpecs and read from a ParamMap by key in one place (DecomposedOptions::from).
// Torch-free.
#include "method/critic_options.h"

namespace milab {

// protocol: conditional (I_NCE + I_CNCE, K/2 candidates per term) or marginal (one shared set of K).
ParamSpec protocolParamSpec();
// M: DEMI-SIR's marginal samples per step.
ParamSpec sirPoolParamSpec();

struct DecomposedOptions {
  CriticOptions critic;
  bool marginalProtocol = false;
  int sirPool = 0;  // M; 0 for the variants that do not declare it
  static constexpr int kSirPoolDefault = 1024;  // M's default, for DEMI-SIR
  // Candidates per row in each term: K under the marginal protocol, K/2 under the conditional one.
  int perTerm() const { return marginalProtocol ? critic.K : critic.K / 2; }
  static DecomposedOptions from(const ParamMap& params);
};

}  // namespace milab
