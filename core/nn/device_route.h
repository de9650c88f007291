#pragma once
// The switch that makes a CPU run take the code a CUDA device takes (issue 76): autograd for the critics instead of
// the written-out passes (nn/fusable.h: JointCpuPass, SeparableCpuPass, the softmax rows, DEMI's candidate loops),
// ATen's Adam instead of FlatAdam's fused rows, at::randn instead of Philox's normals (random/philox_normals), and a
// noise generator of its own beside the networks' (engine/training_session), as a CUDA run has. CI has no GPU: with
// it the GPU's route runs there on every commit (test_conformance_matrix under $MILAB_DEVICE_ROUTE, test_device_route).
// Process-wide, read by the loops that pick a route; $MILAB_DEVICE_ROUTE=1 sets it at start. Torch-free.

namespace milab {

bool cpuTakesDeviceRoute();
void setCpuTakesDeviceRoute(bool on);

}  // namespace milab
