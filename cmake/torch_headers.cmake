# Which of LibTorch's headers a file pulls in, read from its #include lines at configure time, so that each target
# (or each part of milab_core) loads the smallest precompiled header that covers it (cmake/build_speed.cmake). A
# precompiled header costs its load in every file that takes it whether used or not: <ATen/ATen.h> (268 MB) about
# 2 s, ATen with torch's modules (416 MB) about 2.7 s more in a file that never includes a module, while a file that
# does include them parses them in about 4 s without. For a library or plugin the answer only picks a header, and a
# file compiles the same way with any (every file includes what it uses), so a wrong answer costs time; a suite's
# QT_NO_KEYWORDS follows it too (tests/CMakeLists.txt), so a torch include missed there fails to compile.

# milab_torch_headers(out file...): MODULES where a file includes torch's C++ API (<torch/...>: the modules of
# nn/mlp.h and the like), ATEN where it includes ATen or c10 only, NONE otherwise, following the project's own
# headers ("..." includes found beside the including file or under MILAB_INCLUDE_ROOTS).
# Generated files (under the build folder: a moc output includes its header, which is listed itself) are skipped.
function(milab_torch_headers out)
  set(level NONE)
  foreach(file ${ARGN})
    get_filename_component(file "${file}" ABSOLUTE)
    string(FIND "${file}" "${CMAKE_BINARY_DIR}/" in_build)
    if(in_build EQUAL -1 AND EXISTS "${file}" AND NOT IS_DIRECTORY "${file}")
      _milab_file_torch_headers(file_level "${file}")
      milab_more_torch(level ${level} ${file_level})
    endif()
  endforeach()
  set(${out} ${level} PARENT_SCOPE)
endfunction()

# milab_more_torch(var a b): var = the larger of two levels (NONE < ATEN < MODULES).
function(milab_more_torch var a b)
  set(order NONE ATEN MODULES)
  list(FIND order ${a} ia)
  list(FIND order ${b} ib)
  if(ib GREATER ia)
    set(${var} ${b} PARENT_SCOPE)
  else()
    set(${var} ${a} PARENT_SCOPE)
  endif()
endfunction()

# Where the project's "..." includes are found: core/, plugins/ and tests/, and each method and task family's own
# folder (a family's headers are reachable by their bare names, plugins/CMakeLists.txt).
file(GLOB MILAB_FAMILY_FOLDERS LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/plugins/* ${PROJECT_SOURCE_DIR}/plugins/tasks/*)
set(MILAB_INCLUDE_ROOTS ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/plugins ${PROJECT_SOURCE_DIR}/tests)
foreach(folder ${MILAB_FAMILY_FOLDERS})
  if(IS_DIRECTORY ${folder})
    list(APPEND MILAB_INCLUDE_ROOTS ${folder})
  endif()
endforeach()

# One file's level, remembered for the whole configure run (headers are shared by many targets). A file on an
# include cycle reads NONE while it is being scanned; #pragma once makes such cycles harmless to the compiler too.
function(_milab_file_torch_headers out file)
  get_property(known GLOBAL PROPERTY "MILAB_TORCH_HEADERS:${file}" SET)
  if(known)
    get_property(level GLOBAL PROPERTY "MILAB_TORCH_HEADERS:${file}")
    set(${out} ${level} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "MILAB_TORCH_HEADERS:${file}" NONE)
  set(level NONE)
  get_filename_component(dir "${file}" DIRECTORY)
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  foreach(line ${includes})
    if(line MATCHES "<torch/")
      set(level MODULES)
      break()
    elseif(line MATCHES "<(ATen|c10)/")
      set(level ATEN)
    elseif(line MATCHES "\"([^\"]+)\"")
      set(name "${CMAKE_MATCH_1}")
      foreach(base "${dir}" ${MILAB_INCLUDE_ROOTS})
        if(EXISTS "${base}/${name}")
          get_filename_component(header "${base}/${name}" ABSOLUTE)
          _milab_file_torch_headers(header_level "${header}")
          milab_more_torch(level ${level} ${header_level})
          break()
        endif()
      endforeach()
      if(level STREQUAL "MODULES")
        break()
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "MILAB_TORCH_HEADERS:${file}" ${level})
  set(${out} ${level} PARENT_SCOPE)
endfunction()
