#pragma once
// A failed allocation as one line naming the key to lower (issue 80, item 6). Validation refuses a setting whose
// estimated need passes the memory budget (method/memory_need.h), but the estimates are fits within about 20% and
// other programs take memory while a run trains, so an allocation can fail anyway; then the allocator's own text
// ("[enforce fail at alloc_cpu.cpp:...] DefaultCPUAllocator: can't allocate memory: you tried to allocate ...",
// "std::bad_alloc") names no setting a person could change.
#include <QString>
#include <exception>
#include <optional>

namespace milab {

class MethodPlugin;
struct RunSpec;

// The line for `error` when it is a failed allocation (std::bad_alloc, LibTorch's CPU or CUDA allocator), e.g.
// "K: infonce could not allocate memory (X GiB asked; the lab estimates about 4.2 GiB for its K x K score matrices
// (K = 16384), against this machine's 23.5 GiB); lower K"; nothing for any other error. `spec` must have passed validation.
std::optional<QString> allocationFailureLine(const std::exception& error, const MethodPlugin& method,
                                             const RunSpec& spec);

}  // namespace milab
