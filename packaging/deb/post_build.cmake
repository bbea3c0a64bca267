# SPDX-License-Identifier: MIT
# CPack post-build step (CPACK_POST_BUILD_SCRIPTS) for the Debian packages.
# CPack gives a package holding a shared library in /usr/lib maintainer
# scripts that run ldconfig (postinst, postrm), and offers no switch to turn
# that off; Debian's way is the `activate-noawait ldconfig` trigger libskn1
# already ships (packaging/deb/triggers), and lintian rejects the scripts
# (maintscript-calls-ldconfig). So: take libskn1's postinst and postrm out,
# after checking they hold nothing but that ldconfig call.
foreach(deb IN LISTS CPACK_PACKAGE_FILES)
  get_filename_component(name "${deb}" NAME)
  if(NOT name MATCHES "^libskn1_.*\\.deb$")
    continue()
  endif()
  set(dir "${deb}.unpacked")
  file(REMOVE_RECURSE "${dir}")
  execute_process(COMMAND dpkg-deb -R "${deb}" "${dir}" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb -R ${deb}: ${err}")
  endif()
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
  execute_process(COMMAND dpkg-deb --root-owner-group -Zxz -b "${dir}" "${deb}" RESULT_VARIABLE rc OUTPUT_QUIET
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb -b ${dir}: ${err}")
  endif()
  file(REMOVE_RECURSE "${dir}")
  message(STATUS "${name}: ldconfig maintainer scripts replaced by the ldconfig trigger")
endforeach()
