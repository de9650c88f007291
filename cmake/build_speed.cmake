# How the build stays short on a 2-core machine (issue 47). Measured on one translation unit here (Release, g++ 12):
# most of a LibTorch file's 14-25 s is instantiating and compiling the inline code of the headers, which every file
# does again, and about 6 s is parsing ATen. So:
# - unity builds: a target's files are compiled in batches, each batch instantiating the headers' code once
#   (6 files of core/nn: 64 s one by one, 16 s as one batch). A developer editing one file may switch them off
#   (-DCMAKE_UNITY_BUILD=OFF) to recompile only that file.
# - one precompiled <ATen/ATen.h> (268 MB, ~19 s to build), built once and reused by every target that compiles
#   LibTorch code: a file that only includes ATen drops from 8 s to 2 s. Not the whole <torch/torch.h>
#   (568 MB, 49 s): the files that use torch's modules spend their time instantiating, not parsing.
# Both need the same code-generation flags everywhere, so every target is position independent (Qt asks for -fPIC
# of executables anyway).
if(NOT DEFINED CMAKE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
endif()
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
# A program or plugin is not relinked because a shared library it links changed: the dynamic linker resolves its
# symbols at load time, and a changed header recompiles (and so relinks) its includers anyway. Without this, one
# edited file of milab_core relinks ~40 plugins and ~70 test programs (about 90 s on 2 cores), which was most of a
# mutant's build in .ci/mutate (issue 51) and of a developer's rebuild.
set(CMAKE_LINK_DEPENDS_NO_SHARED ON)
option(MILAB_PRECOMPILED_ATEN "precompile <ATen/ATen.h> once and reuse it in every LibTorch target" ON)

# The precompiled header has a target of its own, with only the definitions every LibTorch target shares (LibTorch's,
# Qt Core's, QT_NO_KEYWORDS): GCC refuses a precompiled header built with a macro the including file lacks, so one
# built for milab_core (MILAB_VERSION, milab_core_EXPORTS) would serve milab_core alone.
if(MILAB_PRECOMPILED_ATEN)
  add_library(milab_aten_pch OBJECT ${CMAKE_CURRENT_LIST_DIR}/aten_pch.cpp)
  set_target_properties(milab_aten_pch PROPERTIES AUTOMOC OFF)
  target_compile_definitions(milab_aten_pch PRIVATE QT_NO_KEYWORDS)
  target_compile_options(milab_aten_pch PRIVATE ${TORCH_CXX_FLAGS})
  target_link_libraries(milab_aten_pch PRIVATE Qt6::Core ${TORCH_LIBRARIES})
  target_precompile_headers(milab_aten_pch PRIVATE <ATen/ATen.h>)
endif()

# milab_use_precompiled_aten(target [EMPTY_MOC]): the target's files see <ATen/ATen.h> first, precompiled once for
# all. EMPTY_MOC: the target's moc output is included by its own files (a Qt Test suite's "x.moc"), so AUTOMOC's
# mocs_compilation.cpp is empty and loading the 268 MB header there would be its whole cost (2 s, 7 s beside a build).
function(milab_use_precompiled_aten target)
  if(MILAB_PRECOMPILED_ATEN)
    target_precompile_headers(${target} REUSE_FROM milab_aten_pch)
    if("EMPTY_MOC" IN_LIST ARGN)
      milab_moc_is_empty(${target})
    endif()
  endif()
endfunction()

# milab_moc_is_empty(target): the target's files include their own moc, so its mocs_compilation.cpp is empty and
# compiles without the precompiled header.
function(milab_moc_is_empty target)
  set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${target}_autogen/mocs_compilation.cpp
                              PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
endfunction()
