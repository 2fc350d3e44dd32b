# check_fio_src: fails unless the fio source tree TREE is the release of the installed fio (FIO = its path).
# fio checks only FIO_IOOPS_VERSION when it loads an external engine, and struct layouts change between
# releases without a bump, so an engine built against other headers would misread fio's structs.
# Used at configure time (include + bench_check_fio_src) and at build time (cmake -DTREE=.. -DFIO=.. -P).

function(bench_check_fio_src tree fio)
  if(NOT EXISTS "${tree}/FIO-VERSION-GEN" OR NOT EXISTS "${tree}/ioengines.h")
    message(FATAL_ERROR "sim ioengine: '${tree}' is not a fio source tree (no FIO-VERSION-GEN or ioengines.h)")
  endif()
  if(NOT EXISTS "${tree}/config-host.h")
    message(FATAL_ERROR "sim ioengine: '${tree}' is not configured: run ./configure --disable-native in it "
                        "(scripts/fio-src does)")
  endif()
  # A release tarball may carry a 'version' file; otherwise FIO-VERSION-GEN's DEF_VER names the release.
  if(EXISTS "${tree}/version")
    file(STRINGS "${tree}/version" src_version LIMIT_COUNT 1)
  else()
    file(STRINGS "${tree}/FIO-VERSION-GEN" def_ver REGEX "^DEF_VER=")
    string(REGEX REPLACE "^DEF_VER=[ \t]*" "" src_version "${def_ver}")
  endif()
  string(STRIP "${src_version}" src_version)
  execute_process(COMMAND "${fio}" --version OUTPUT_VARIABLE fio_version RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT rc EQUAL 0 OR fio_version STREQUAL "")
    message(FATAL_ERROR "sim ioengine: '${fio} --version' failed: is fio installed? (scripts/setup)")
  endif()
  if(NOT src_version STREQUAL fio_version)
    message(FATAL_ERROR "sim ioengine: the fio source tree '${tree}' is ${src_version} but the installed fio "
                        "is ${fio_version}: the engine must be built against the headers of the installed "
                        "release (remove ${tree} or BENCH_FIO_SRC and build again, so that scripts/fio-src "
                        "fetches ${fio_version})")
  endif()
  # A tree fetched by scripts/fio-src records the Debian version (with its patches); a new revision of the
  # package needs a new tree too.
  if(EXISTS "${tree}/.bench-fio-src")
    file(STRINGS "${tree}/.bench-fio-src" tree_deb LIMIT_COUNT 1)
    execute_process(COMMAND dpkg-query -W -f=\${Version} fio OUTPUT_VARIABLE deb_version RESULT_VARIABLE rc
                    ERROR_QUIET)
    if(rc EQUAL 0 AND NOT deb_version STREQUAL "" AND NOT tree_deb STREQUAL deb_version)
      message(FATAL_ERROR "sim ioengine: the fio source tree '${tree}' is of the Debian package ${tree_deb} but "
                          "the installed package is fio ${deb_version}: remove '${tree}' and build again")
    endif()
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED TREE)
  bench_check_fio_src("${TREE}" "${FIO}")
endif()
