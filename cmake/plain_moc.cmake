# moc without AUTOMOC, for the targets whose Q_OBJECT class is known: a Qt Test suite and a plugin (issue 47, a
# shorter build). AUTOMOC hands moc every include folder of the target, and moc follows each #include into Qt's and
# ATen's headers to expand their macros: 0.5-4 s a target (the suites' AUTOMOC steps were 263 s, the plugins' 56 s,
# of the 3,384 s of jobs in a fresh build), for headers that declare nothing moc needs. Here moc sees at most the
# project's own folders and takes a few hundredths of a second; its output is the same (checked file by file
# against AUTOMOC's when this came in).

# milab_moc_suite(target source): a suite's class is declared whole in its own .cpp, which includes "<file>.moc",
# so moc needs none of its includes. The suite's definitions still reach moc, for an #if around a slot.
function(milab_moc_suite target source)
  set_target_properties(${target} PROPERTIES AUTOMOC OFF)
  get_filename_component(base ${source} NAME_WE)
  get_filename_component(path ${source} ABSOLUTE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_moc)
  milab_run_moc(${target} ${path} ${dir}/${base}.moc)
  target_sources(${target} PRIVATE ${dir}/${base}.moc)
  target_include_directories(${target} PRIVATE ${dir})
endfunction()

# milab_moc_plugin(target header [INCLUDED]): a plugin's class, declared in `header` with Q_PLUGIN_METADATA (moc
# embeds the JSON file named there, so a change to it reruns moc) and Q_INTERFACES (whose IID moc reads from core's
# interface header: core's and plugins/ folders are on moc's path, Qt's and torch's are not). INCLUDED: a .cpp of
# the target includes "moc_<header>.cpp" (one file fewer to compile); otherwise it is compiled as a file of its own.
# moc reruns when either interface header changes: a bumped IID left in an old moc output makes the registry refuse
# every plugin of an incremental build.
function(milab_moc_plugin target header)
  set_target_properties(${target} PROPERTIES AUTOMOC OFF)
  get_filename_component(base ${header} NAME_WE)
  get_filename_component(path ${header} ABSOLUTE)
  get_filename_component(folder ${path} DIRECTORY)
  file(STRINGS ${path} metadata REGEX "Q_PLUGIN_METADATA.*FILE")
  string(REGEX REPLACE ".*FILE \"([^\"]+)\".*" "\\1" json "${metadata}")
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_moc)
  set(out ${dir}/moc_${base}.cpp)
  milab_run_moc(${target} ${path} ${out} -I${PROJECT_SOURCE_DIR}/core -I${PROJECT_SOURCE_DIR}/plugins -I${folder}
                DEPENDS ${folder}/${json} ${PROJECT_SOURCE_DIR}/core/method/method_plugin.h
                        ${PROJECT_SOURCE_DIR}/core/tasks/task.h)
  target_sources(${target} PRIVATE ${out})
  if("INCLUDED" IN_LIST ARGN)
    set_source_files_properties(${out} PROPERTIES HEADER_FILE_ONLY ON)
    target_include_directories(${target} PRIVATE ${dir})
  endif()
endfunction()

# milab_run_moc(target input output [moc options] [DEPENDS files]): moc with the target's own definitions.
function(milab_run_moc target input output)
  cmake_parse_arguments(M "" "" "DEPENDS" ${ARGN})
  set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  add_custom_command(OUTPUT ${output}
    COMMAND Qt6::moc "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},;-D>>" ${M_UNPARSED_ARGUMENTS} ${input}
            -o ${output}
    DEPENDS ${input} ${M_DEPENDS} Qt6::moc COMMAND_EXPAND_LISTS VERBATIM)
endfunction()
