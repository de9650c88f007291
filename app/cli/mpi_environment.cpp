// Whether milab-cli runs under mpirun, and its rank and size, read from the environment Open MPI sets.
#include "cli/mpi_grid.h"

#include <QByteArray>

namespace milab {

namespace {
// The first of `names` that mpirun set, as an integer; `fallback` when none is.
int fromEnvironment(std::initializer_list<const char*> names, int fallback) {
  for (const char* name : names) {
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    if (ok) return v;
  }
  return fallback;
}
}  // namespace

int mpiWorldSizeFromEnvironment() {
  return fromEnvironment({"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"}, 1);
}

int mpiRankFromEnvironment() { return fromEnvironment({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}, 0); }

bool builtWithMpi() {
#ifdef MILAB_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace milab
