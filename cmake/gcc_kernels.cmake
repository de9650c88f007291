# The hand-written hot loops compiled with GCC in a Clang build (issue 47: a build that takes minutes).
#
# Clang builds the lab about 2.5 times faster than GCC on this kind of machine (from empty on 2 cores: 274-321 s
# against 720-774 s; ninja's jobs 878-1,014 s against 2,181-2,349 s): its precompiled headers load lazily, where GCC
# performs a precompiled header's pending template instantiations again in every file that takes it (4 s for an empty
# file, most of a test suite's 6-13 s). .ci/setup builds with Clang. The few files whose loops were written and
# measured against GCC's vectoriser stay with GCC: those that use nn/target_clones.h or `omp simd` (Philox's normals,
# the softmax rows, Adam's fused pass, the joint critic's pair loops, the separable critic's written-out pass, DEMI's
# candidate scores). Built by Clang, DEMI's step took 1,098 us against 821 (bench_demi_parts 128: the negatives 362 us
# against 124, Clang 14 knowing no 16-lane libmvec variants; the ReLU mask a branch instead of a select).
#
# MILAB_GCC_KERNELS (default ON) applies when the compiler is Clang, g++ is installed and nothing is sanitized (a
# sanitizer build instruments every file with one compiler). With GCC as the compiler nothing changes.
option(MILAB_GCC_KERNELS "in a Clang build, compile the hand-tuned loops with g++" ON)
set(MILAB_KERNELS_WITH_GCC OFF)
if(MILAB_GCC_KERNELS AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND NOT MILAB_SANITIZE AND NOT MILAB_FUZZ)
  find_program(MILAB_KERNEL_CXX NAMES g++ g++-14 g++-13 g++-12 DOC "GCC for the hand-tuned loops")
  if(MILAB_KERNEL_CXX)
    set(MILAB_KERNELS_WITH_GCC ON)
  endif()
endif()

# milab_compile_with_gcc(owner link_target files...): the files, sources of `owner`, are compiled by g++ with owner's
# include folders, definitions and the file's own COMPILE_OPTIONS, and their objects linked into link_target (owner
# itself, or the library an OBJECT library's objects end up in). Without MILAB_KERNELS_WITH_GCC, nothing: the files
# stay owner's ordinary sources.
function(milab_compile_with_gcc owner link_target)
  if(NOT MILAB_KERNELS_WITH_GCC)
    return()
  endif()
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  separate_arguments(config_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${config}}")
  # The system's own folders left out (as CMake leaves them out for the compiler it runs): given with -isystem they
  # would come before libstdc++'s wrappers, whose #include_next then finds no <stdlib.h>.
  set(includes "$<TARGET_PROPERTY:${owner},INCLUDE_DIRECTORIES>")
  set(includes "$<REMOVE_DUPLICATES:$<FILTER:${includes},EXCLUDE,^/usr(/lib/\\.\\.)?(/local)?/include/?$>>")
  set(definitions "$<TARGET_PROPERTY:${owner},COMPILE_DEFINITIONS>")
  set(options "$<TARGET_PROPERTY:${owner},COMPILE_OPTIONS>")
  foreach(file ${ARGN})
    get_filename_component(source ${file} ABSOLUTE)
    get_filename_component(name ${file} NAME_WE)
    get_source_file_property(file_options ${source} COMPILE_OPTIONS)
    if(NOT file_options)
      set(file_options "")
    endif()
    set(object ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${owner}.dir/gcc/${name}.o)
    add_custom_command(
      OUTPUT ${object}
      # -isystem for every folder: LibTorch's and Qt's headers stay quiet, as they are under -isystem for Clang.
      COMMAND ${MILAB_KERNEL_CXX} ${config_flags} -fPIC -std=gnu++${CMAKE_CXX_STANDARD} ${options}
              "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},;-D>>"
              "$<$<BOOL:${includes}>:-isystem;$<JOIN:${includes},;-isystem;>>" ${file_options}
              -MD -MF ${object}.d -c ${source} -o ${object}
      DEPENDS ${source}
      DEPFILE ${object}.d
      COMMENT "Building CXX object ${file} with g++ (a hand-tuned loop, cmake/gcc_kernels.cmake)"
      COMMAND_EXPAND_LISTS VERBATIM)
    set_source_files_properties(${source} PROPERTIES HEADER_FILE_ONLY ON)
    target_sources(${link_target} PRIVATE ${object})
  endforeach()
endfunction()
