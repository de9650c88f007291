#include "nn/separable_critic.h"

#include "nn/descent.h"

namespace milab {

SeparableCritic::SeparableCritic(int64_t xDim, int64_t yDim, int64_t hidden, int64_t embed, double lr,
                                 c10::Device device, at::Generator& gen) {
  f_ = Mlp(xDim, hidden, embed, gen);
  g_ = Mlp(yDim, hidden, embed, gen);
  f_->to(device);
  g_->to(device);
  std::vector<at::Tensor> all = f_->parameters();
  for (const at::Tensor& p : g_->parameters()) all.push_back(p);
  adam_ = std::make_unique<FlatAdam>(all, lr);
}

void SeparableCritic::minimise(const at::Tensor& loss) {
  descend(*adam_, loss);
}

}  // namespace milab
