# SPDX-License-Identifier: MIT
# CPack post-build step (CPACK_POST_BUILD_SCRIPTS) for the Debian packages:
# what dh_* would do and CPack cannot. Each package is unpacked, changed and
# rebuilt:
#
#  - libskn1's postinst and postrm go. CPack gives a package holding a shared
#    library in /usr/lib maintainer scripts that run ldconfig, and offers no
#    switch to turn that off; Debian's way is the `activate-noawait
#    ldconfig` trigger libskn1 already ships (packaging/deb/triggers), and
#    lintian rejects the scripts (maintscript-calls-ldconfig). They are
#    removed after checking they hold nothing but that ldconfig call.
#  - ELF files lose the .comment and .note sections CPack's plain `strip`
#    leaves (dh_strip removes them; lintian: binary-has-unneeded-section),
#    with the toolchain's strip (CPACK_SKN_STRIP: the target's, for a cross
#    build).
#  - libskn1 gets DEBIAN/symbols: every symbol libskn.so.1 exports, with the
#    upstream version that introduced its version node (SKN_1.0 -> 1.0.0,
#    SKN_1.1 -> 1.1.0, ...; capi/libskn.map), as dpkg-gensymbols writes it.
#    A node the map does not declare fails the build.
#  - Multi-Arch: same (CPACK_SKN_MULTIARCH_SAME: libskn1, libskn-dev: every
#    file is in an architecture's directory or identical on all) and
#    Multi-Arch: foreign (CPACK_SKN_MULTIARCH_FOREIGN: libskn-doc); CPack 3.25
#    has no variable for the field.
#  - DEBIAN/md5sums is written again for the changed files.
cmake_minimum_required(VERSION 3.25)

foreach(tool CPACK_SKN_STRIP CPACK_SKN_READELF)
  if(NOT ${tool})
    message(FATAL_ERROR "${tool} is empty: the build found no strip/readelf (binutils, or the cross toolchain's)")
  endif()
endforeach()

set(map "${CPACK_SKN_SOURCE_DIR}/capi/libskn.map")
file(STRINGS "${map}" map_nodes REGEX "^[ \t]*SKN_[0-9]+\\.[0-9]+[ \t]*\\{")
list(TRANSFORM map_nodes REPLACE "^[ \t]*(SKN_[0-9]+\\.[0-9]+).*" "\\1")
if(NOT map_nodes)
  message(FATAL_ERROR "${map} declares no SKN_x.y version node")
endif()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${cmd}: ${err}${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# libskn1's DEBIAN/symbols from the library's dynamic symbol table.
function(write_symbols dir)
  file(GLOB libs "${dir}/usr/lib/*/libskn.so.1.*" "${dir}/usr/lib/libskn.so.1.*")
  list(LENGTH libs n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "libskn1: expected one libskn.so.1.x.y, found '${libs}'")
  endif()
  run("${CPACK_SKN_READELF}" -W --dyn-syms "${libs}")
  string(REPLACE "\n" ";" lines "${run_output}")
  set(entries)
  foreach(line IN LISTS lines)
    # Num: Value Size Type Bind Vis Ndx Name; defined global symbols only
    # (the aarch64 linker also puts LOCAL SECTION symbols such as .init in
    # .dynsym, which no program can bind to).
    if(NOT line MATCHES "^ *[0-9]+: +[0-9a-f]+ +[0-9a-fx]+ +([A-Z_]+) +([A-Z_]+) +[A-Z_]+ +([A-Z0-9]+) +([^ ]+)")
      continue()
    endif()
    set(type "${CMAKE_MATCH_1}")
    set(bind "${CMAKE_MATCH_2}")
    set(ndx "${CMAKE_MATCH_3}")
    set(name "${CMAKE_MATCH_4}")
    if(ndx STREQUAL "UND" OR bind STREQUAL "LOCAL" OR type STREQUAL "SECTION")
      continue()
    endif()
    if(name MATCHES "^(SKN_[0-9]+\\.[0-9]+)$")          # a version node's own symbol
      set(node "${CMAKE_MATCH_1}")
      set(symbol "${node}")
    elseif(name MATCHES "^(skn_[A-Za-z0-9_]+)@@?(SKN_[0-9]+\\.[0-9]+)$")
      set(symbol "${CMAKE_MATCH_1}")
      set(node "${CMAKE_MATCH_2}")
    else()
      message(FATAL_ERROR "libskn.so.1 exports '${name}', which is not skn_*@SKN_x.y (tests/abi/check_exports.sh)")
    endif()
    if(NOT node IN_LIST map_nodes)
      message(FATAL_ERROR "libskn.so.1 exports ${symbol}@${node}, a node ${map} does not declare")
    endif()
    string(REGEX REPLACE "^SKN_([0-9]+)\\.([0-9]+)$" "\\1.\\2.0" since "${node}")
    list(APPEND entries " ${symbol}@${node} ${since}")
  endforeach()
  list(LENGTH entries count)
  if(count LESS 10)
    message(FATAL_ERROR "libskn.so.1: only ${count} exported symbols found by ${CPACK_SKN_READELF}")
  endif()
  list(SORT entries)
  list(JOIN entries "\n" body)
  file(WRITE "${dir}/DEBIAN/symbols"
    "libskn.so.1 libskn1 #MINVER#\n* Build-Depends-Package: libskn-dev\n${body}\n")
  message(STATUS "libskn1: DEBIAN/symbols with ${count} symbols")
endfunction()

function(remove_ldconfig_scripts dir name)
  if(NOT EXISTS "${dir}/DEBIAN/triggers")
    message(FATAL_ERROR "${name} has no DEBIAN/triggers: the ldconfig trigger must replace the scripts")
  endif()
  foreach(script postinst postrm)
    if(EXISTS "${dir}/DEBIAN/${script}")
      file(READ "${dir}/DEBIAN/${script}" text)
      string(REGEX REPLACE "#[^\n]*\n|set -e\n|if \\[ \"\\$1\" = \"[a-z]+\" \\]; then\n|ldconfig\n|fi\n|[ \t\n]" "" rest "${text}")
      if(NOT rest STREQUAL "")
        message(FATAL_ERROR "${name}: ${script} does more than call ldconfig ('${rest}'); not removing it:\n${text}")
      endif()
      file(REMOVE "${dir}/DEBIAN/${script}")
    endif()
  endforeach()
endfunction()

# Strip .comment and .note from every ELF file; write md5sums again.
function(strip_and_sum dir)
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${dir}" "${dir}/*")
  list(FILTER files EXCLUDE REGEX "^DEBIAN/")
  list(SORT files)
  set(sums "")
  foreach(f IN LISTS files)
    if(NOT IS_SYMLINK "${dir}/${f}")
      file(READ "${dir}/${f}" magic LIMIT 4 HEX)
      if(magic STREQUAL "7f454c46")
        run("${CPACK_SKN_STRIP}" --remove-section=.comment --remove-section=.note "${dir}/${f}")
      endif()
      file(MD5 "${dir}/${f}" md5)
      string(APPEND sums "${md5}  ${f}\n")
    endif()
  endforeach()
  file(WRITE "${dir}/DEBIAN/md5sums" "${sums}")
endfunction()

function(set_multiarch dir value)
  file(READ "${dir}/DEBIAN/control" control)
  if(control MATCHES "\nMulti-Arch:")
    message(FATAL_ERROR "${dir}/DEBIAN/control already has Multi-Arch")
  endif()
  # CPack sorts the fields: Architecture is usually the first line.
  string(REGEX REPLACE "(^|\n)(Architecture: [^\n]*\n)" "\\1\\2Multi-Arch: ${value}\n" control "${control}")
  if(NOT control MATCHES "\nMulti-Arch: ${value}\n")
    message(FATAL_ERROR "${dir}/DEBIAN/control: no Architecture field to put Multi-Arch after:\n${control}")
  endif()
  file(WRITE "${dir}/DEBIAN/control" "${control}")
endfunction()

foreach(deb IN LISTS CPACK_PACKAGE_FILES)
  get_filename_component(file_name "${deb}" NAME)
  string(REGEX REPLACE "_.*" "" name "${file_name}")
  set(dir "${deb}.unpacked")
  file(REMOVE_RECURSE "${dir}")
  run(dpkg-deb -R "${deb}" "${dir}")
  if(name STREQUAL "libskn1")
    remove_ldconfig_scripts("${dir}" "${file_name}")
  endif()
  strip_and_sum("${dir}")
  if(name STREQUAL "libskn1")
    write_symbols("${dir}")
  endif()
  if(name IN_LIST CPACK_SKN_MULTIARCH_SAME)
    set_multiarch("${dir}" same)
  elseif(name IN_LIST CPACK_SKN_MULTIARCH_FOREIGN)
    set_multiarch("${dir}" foreign)
  endif()
  run(dpkg-deb --root-owner-group -Zxz -b "${dir}" "${deb}")
  file(REMOVE_RECURSE "${dir}")
  message(STATUS "${file_name}: finished (post_build.cmake)")
endforeach()
