#pragma once
// How much memory this process may use: the smallest of the machine's memory and the limits set on the process
// (RLIMIT_AS, ulimit -v; RLIMIT_DATA, ulimit -d; its cgroup's memory.max, a container's or a systemd slice's), each
// named, so that a memory guard refuses what the process could not allocate anyway, under whichever limit binds
// (issue 80's probe: under a 3 GB address-space limit a KSG run asking for 4.8 GB passed --check and failed with the
// allocator's raw text).
#include <QString>

namespace milab {

struct MemoryBudget {
  double bytes = 0;
  QString whose;  // says whose the bytes are: "this machine's", "the address-space limit's (ulimit -v)", ...
  // "this machine's 23.5 GiB", "the 3.0 GiB of the address-space limit (ulimit -v)": the refusals' words.
  QString phrase() const;
};

// The machine's memory as a budget ("this machine's").
MemoryBudget machineBudget(double bytes);
// The binding budget now: the machine, or the tightest limit on this process.
MemoryBudget memoryBudget();

// What is left now of the limits that count what the process has already taken (RLIMIT_AS its address space,
// RLIMIT_DATA its data), the tighter of the two, with whose it is; bytes < 0 when neither is set. LibTorch's and
// Qt's libraries alone take about a gigabyte of address space, which counts against ulimit -v before a run starts.
MemoryBudget limitLeft();

}  // namespace milab
