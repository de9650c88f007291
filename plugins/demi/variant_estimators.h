#pragma once
// The estimators of DEMI's variants and of CNCE alone, compiled once in the family library. Each variant's plugin
// (a Qt class, one shared module each) creates its estimator through these, so a plugin's file includes ATen's
// tensor type (method/estimator.h: returning a unique_ptr needs the complete class) but not torch's modules or the
// estimator's code: about 5 s of compiling saved six times over (docs/developer.md, "Building").
#include <memory>

#include "method/estimator.h"

namespace milab {

std::unique_ptr<Estimator> makeDemiEstimator(const EstimatorContext& context);     // demi
std::unique_ptr<Estimator> makeDemiBoEstimator(const EstimatorContext& context);   // demi-bo
std::unique_ptr<Estimator> makeDemiIsEstimator(const EstimatorContext& context);   // demi-is
std::unique_ptr<Estimator> makeDemiSirEstimator(const EstimatorContext& context);  // demi-sir
std::unique_ptr<Estimator> makeDemiVarEstimator(const EstimatorContext& context);  // demi-var
std::unique_ptr<Estimator> makeCnceEstimator(const EstimatorContext& context);     // cnce

}  // namespace milab
