# How the build stays short on a 2-core machine (issue 47). Measured on one translation unit here (Release, g++ 12):
# most of a LibTorch file's 14-25 s is instantiating and compiling the inline code of the headers, which every file
# does again, and about 6 s is parsing ATen. So:
# - unity builds: a target's files are compiled in batches, each batch instantiating the headers' code once
#   (6 files of core/nn: 64 s one by one, 16 s as one batch; 16 files of core's torch-free part: 15.1 s in two
#   batches of 8, 12.0 s in one, so batches of 16). A developer editing one file may switch them off
#   (-DCMAKE_UNITY_BUILD=OFF) to recompile only that file.
# - precompiled headers, built once and reused by every target with the same flags: <ATen/ATen.h> (268 MB, ~19 s
#   to build; a file that only includes ATen drops from 8 s to 2 s), ATen with the torch modules the lab's MLPs use
#   (416 MB, ~33 s; 4 s less in a file that includes them, 2.7 s more in one that does not), and the Qt headers that
#   cost most to parse where torch is not included: the widgets with qcustomplot.h (11 s a file) in app/ and the
#   window's tests, <QtTest> (3.7 s) in the other suites. Loading one costs ~2 s, so a target gets the smallest that
#   covers what its files include (cmake/torch_headers.cmake reads their #include lines), or none.
# They need the same code-generation flags everywhere, so every target is position independent (Qt asks for -fPIC
# of executables anyway).
include(${CMAKE_CURRENT_LIST_DIR}/torch_headers.cmake)
if(NOT DEFINED CMAKE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
endif()
set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
# A program or plugin is not relinked because a shared library it links changed: the dynamic linker resolves its
# symbols at load time, and a changed header recompiles (and so relinks) its includers anyway. Without this, one
# edited file of milab_core relinks ~40 plugins and ~70 test programs (about 90 s on 2 cores), which was most of a
# mutant's build in .ci/mutate (issue 51) and of a developer's rebuild.
set(CMAKE_LINK_DEPENDS_NO_SHARED ON)
# LLVM's linker (Debian's lld, which .ci/setup installs) where the compiler can use it: a test program links in
# 0.2 s against GNU ld's 2.1 s, milab-cli in 0.4 s against 3.4 s, and a build's ~110 links were 230 s of its jobs.
option(MILAB_LLD "link with LLVM's lld where it is installed" ON)
if(MILAB_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" MILAB_HAVE_LLD)
  if(MILAB_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
option(MILAB_PRECOMPILED_HEADERS "precompile ATen, Qt's widgets with qcustomplot.h and Qt Test once each, for reuse" ON)

# milab_add_pch(name HEADERS ... [LIBS ...] [DEFINITIONS ...] [OPTIONS ...]): a target whose one job is to
# precompile HEADERS with only the definitions LIBS and DEFINITIONS bring. GCC uses a precompiled header only where
# every macro defined when it was built is defined the same way in the including file (a macro the file adds is
# fine if the headers never look at it), so one built with a target's own macros (MILAB_VERSION, <lib>_EXPORTS)
# would serve that target alone; built with the fewest, it serves every target that links the same libraries.
function(milab_add_pch name)
  cmake_parse_arguments(P "" "" "HEADERS;LIBS;DEFINITIONS;OPTIONS" ${ARGN})
  add_library(${name} OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cpp)
  set_target_properties(${name} PROPERTIES AUTOMOC OFF UNITY_BUILD OFF)
  target_compile_definitions(${name} PRIVATE ${P_DEFINITIONS})
  target_compile_options(${name} PRIVATE ${P_OPTIONS})
  target_link_libraries(${name} PRIVATE ${P_LIBS})
  target_precompile_headers(${name} PRIVATE ${P_HEADERS})
endfunction()

# milab_use_pch(target pch [EMPTY_MOC]): the target's files see the precompiled headers of `pch` first. EMPTY_MOC:
# the target's moc output is included by its own files (a benchmark's "x.moc"; the suites and plugins run moc
# without AUTOMOC, cmake/plain_moc.cmake), so AUTOMOC's mocs_compilation.cpp is empty and loading a precompiled
# header there would be its whole cost (2 s, 7 s beside a build).
function(milab_use_pch target pch)
  if(MILAB_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} REUSE_FROM ${pch})
    if("EMPTY_MOC" IN_LIST ARGN)
      milab_moc_is_empty(${target})
    endif()
  endif()
endfunction()

if(MILAB_PRECOMPILED_HEADERS)
  # <ATen/ATen.h> for every target whose files include ATen, and the same with torch's modules (nn/mlp.h's) for those
  # whose files include them, with the definitions they all share (LibTorch's, Qt Core's, QT_NO_KEYWORDS, which
  # torch's headers need).
  milab_add_pch(milab_aten_pch HEADERS <ATen/ATen.h> LIBS Qt6::Core ${TORCH_LIBRARIES} DEFINITIONS QT_NO_KEYWORDS
                OPTIONS ${TORCH_CXX_FLAGS})
  milab_add_pch(milab_torch_modules_pch
                HEADERS <ATen/ATen.h> <torch/nn/module.h> <torch/nn/modules/linear.h> <torch/nn/pimpl.h>
                LIBS Qt6::Core ${TORCH_LIBRARIES} DEFINITIONS QT_NO_KEYWORDS OPTIONS ${TORCH_CXX_FLAGS})
  # Qt's widgets and qcustomplot.h for the window, the runner and their tests, which never include torch (app/ keeps
  # Qt's keywords, which qcustomplot.h uses and torch's headers forbid): qcustomplot.h alone takes 11 s to parse, half
  # of an app unit (a milab_plot batch: 19-21 s without, 10-11 s with; 305 MB, 19 s to build).
  milab_add_pch(milab_gui_pch HEADERS <QtWidgets> <qcustomplot.h>
                LIBS Qt6::Widgets Qt6::PrintSupport Qt6::Svg QCustomPlotQt6::QCustomPlotQt6 OPTIONS ${TORCH_CXX_FLAGS})
endif()

# milab_torch_pch(out level): the precompiled header for files that include `level` of LibTorch
# (milab_torch_headers), empty for NONE.
function(milab_torch_pch out level)
  if(level STREQUAL "MODULES")
    set(${out} milab_torch_modules_pch PARENT_SCOPE)
  elseif(level STREQUAL "ATEN")
    set(${out} milab_aten_pch PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# milab_use_precompiled_torch(target [EMPTY_MOC]): the target's files see the precompiled LibTorch headers that cover
# what they include, if any (read from the target's sources as listed so far).
function(milab_use_precompiled_torch target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(folder ${target} SOURCE_DIR)
  set(files)
  foreach(source ${sources})
    if(NOT IS_ABSOLUTE "${source}")
      set(source "${folder}/${source}")
    endif()
    list(APPEND files "${source}")
  endforeach()
  milab_torch_headers(level ${files})
  milab_torch_pch(pch ${level})
  if(pch)
    milab_use_pch(${target} ${pch} ${ARGN})
  endif()
endfunction()

# milab_moc_is_empty(target): the target's files include their own moc, so its mocs_compilation.cpp is empty and
# compiles without the precompiled header.
function(milab_moc_is_empty target)
  set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${target}_autogen/mocs_compilation.cpp
                              PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
endfunction()
