#include "nn/sgemm.h"

#include <ATen/ATen.h>
#ifdef MILAB_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include <stdexcept>

namespace milab {

#ifdef MILAB_HAVE_DNNL

void sgemm(char transA, char transB, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float beta,
           float* c) {
  const int64_t lda = transA == 'N' ? k : m, ldb = transB == 'N' ? n : k;
  if (dnnl_sgemm(transA, transB, m, n, k, 1.f, a, lda, b, ldb, beta, c, n) != dnnl_success)
    throw std::runtime_error("oneDNN's sgemm refused a written-out pass's shapes");
}

bool sgemmThroughOneDnn() { return true; }

#else

namespace {
// A stored [rows, cols] (row-major), read transposed for 'T'.
at::Tensor operand(const float* data, int64_t rows, int64_t cols, char trans) {
  const at::Tensor stored = at::from_blob(const_cast<float*>(data), {rows, cols}, at::kFloat);
  return trans == 'N' ? stored : stored.t();
}
}  // namespace

void sgemm(char transA, char transB, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float beta,
           float* c) {
  const at::Tensor A = transA == 'N' ? operand(a, m, k, 'N') : operand(a, k, m, 'T');
  const at::Tensor B = transB == 'N' ? operand(b, k, n, 'N') : operand(b, n, k, 'T');
  at::Tensor C = at::from_blob(c, {m, n}, at::kFloat);
  if (beta == 0)
    at::mm_out(C, A, B);
  else
    C.addmm_(A, B, beta, 1);
}

bool sgemmThroughOneDnn() { return false; }

#endif

}  // namespace milab
