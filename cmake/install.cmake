# `cmake --install build --prefix P` lays milab out like any desktop program (issue 47):
#   P/bin/milab, P/bin/milab-cli
#   P/lib/milab/        libmilab_core.so and the method and task families' libraries
#   P/lib/milab/plugins the method plugins, and tasks/ the task plugins: MethodRegistry::defaultPluginDirs looks in
#                       <exe>/../lib/milab/plugins, so an install needs no environment variable
#   P/share/milab/experiments, P/share/doc/milab (docs/, the Help menu's pages), P/share/applications/milab.desktop,
#   P/share/icons/hicolor/scalable/apps/milab.svg,
#   P/share/man/man1/milab-cli.1 (help2man, from the runner's own --help)
# Every path is relative to the binary ($ORIGIN), so the same tree works under any prefix and from a .deb.
include(GNUInstallDirs)
set(MILAB_INSTALL_LIB_DIR lib/milab)  # private libraries: lib/, not the multiarch libdir, on any prefix
set(MILAB_INSTALL_PLUGIN_DIR ${MILAB_INSTALL_LIB_DIR}/plugins)
# One search path for every binary, whichever folder of an install (bin, lib/milab, its plugins and plugins/tasks) or
# of the build tree (bin, lib, plugins, plugins/tasks, test-plugins/discovery/tasks) it sits in, every entry relative to
# the binary itself. The build tree uses it too (BUILD_WITH_INSTALL_RPATH): the search path CMake computes for a build
# took an empty entry for each of LibTorch's link items, and the dynamic linker reads an empty entry as the current
# folder, so a program started from a folder holding a planted libmpi.so.40 ran that library's code (issue 80).
# test_install reads the search path of every ELF file of the build and the install.
set(CMAKE_INSTALL_RPATH
    "$ORIGIN/../${MILAB_INSTALL_LIB_DIR};$ORIGIN;$ORIGIN/..;$ORIGIN/../..;$ORIGIN/../lib;$ORIGIN/../../lib;$ORIGIN/../../../lib")
set(CMAKE_BUILD_WITH_INSTALL_RPATH ON)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/experiments/ DESTINATION ${CMAKE_INSTALL_DATADIR}/milab/experiments
        FILES_MATCHING PATTERN "*.json")
# The docs, read by the window's Help menu (gui/docs_pages.h) at <exe>/../share/doc/milab; the build tree links that
# folder to the source's docs/, so Help works from a build and an install alike.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/milab)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/doc)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/docs ${CMAKE_BINARY_DIR}/share/doc/milab SYMBOLIC)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/milab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/milab.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)

# The man page, written from `milab-cli --help` and `--version` by help2man (Debian's help2man; .ci/setup installs
# it): it cannot drift from the runner's help. help2man writes no SYNOPSIS of its own: resources/man/milab-cli.h2m
# gives one line per command (test_install checks it against the help's usage lines). Without help2man there is no
# man page, said once here.
find_program(MILAB_HELP2MAN help2man)
if(MILAB_HELP2MAN)
  set(man ${CMAKE_BINARY_DIR}/man/milab-cli.1)
  add_custom_command(OUTPUT ${man}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${MILAB_HELP2MAN} --no-info --section 1
            --name "mutual-information estimators on tasks with a known MI"
            --include ${PROJECT_SOURCE_DIR}/resources/man/milab-cli.h2m --output ${man} $<TARGET_FILE:milab-cli>
    DEPENDS milab-cli ${PROJECT_SOURCE_DIR}/resources/man/milab-cli.h2m VERBATIM)
  add_custom_target(milab_man_page ALL DEPENDS ${man})
  install(FILES ${man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man page for milab-cli (apt-get install help2man)")
endif()

# `cpack -G DEB` in the build folder: a Debian package of the install above, depending on the Debian packages the
# programs load at run time (those .ci/setup installs, the -dev ones replaced by their libraries).
set(CPACK_PACKAGE_NAME milab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "milab developers <milab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "A desktop lab for mutual-information estimators")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)  # the list below is the one .ci/setup checks, not a guess of dpkg's
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libqt6core6, libqt6gui6, libqt6widgets6, libqt6svg6, libqt6printsupport6, libqt6sql6, libqt6sql6-sqlite, \
libqcustomplot2.1-qt6, libtorch1.13, libzip4, zlib1g, libopenblas0-openmp, libdnnl2, openmpi-bin, \
libopenmpi3, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "dataset-fashion-mnist, python3-numpy")  # the Python module reads NumPy arrays
include(CPack)
