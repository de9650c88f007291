// The one file of milab_aten_pch (cmake/build_speed.cmake): the target exists to build <ATen/ATen.h>'s precompiled
// header, which every LibTorch target reuses; this file gives it something to compile.
