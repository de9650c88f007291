// The one file of each precompiled-header target (cmake/build_speed.cmake: milab_aten_pch, milab_gui_pch,
// milab_qtest_pch): such a target exists to build its headers' precompiled form, which other targets reuse; this
// file gives it something to compile.
