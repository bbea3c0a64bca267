# SPDX-License-Identifier: MIT
# The Go binding (bindings/go/skn) as a Go module proxy on disk, for the
# golang-skn-dev package: share/skn/goproxy/<module path>/@v/{list,
# vX.Y.Z.info, vX.Y.Z.mod, vX.Y.Z.zip}, the layout `go` reads from
# GOPROXY=file://... A program then requires the module by its path and
# version, as it would a published one, with no `replace` line and nothing
# downloaded (docs/bindings/go.md).
#
# Made at configure time; a change to a file of the binding re-runs the
# configure step. The zip holds the module's files under
# "<module path>@vX.Y.Z/", as `go mod download` would, and the repository's
# LICENSE, which the module directory lacks.
set(_go_dir ${PROJECT_SOURCE_DIR}/bindings/go/skn)
file(GLOB _go_files RELATIVE ${_go_dir} CONFIGURE_DEPENDS ${_go_dir}/*.go)
list(SORT _go_files)
file(STRINGS ${_go_dir}/go.mod _go_module_line REGEX "^module ")
string(REGEX REPLACE "^module +" "" SKN_GO_MODULE_PATH "${_go_module_line}")
if(NOT SKN_GO_MODULE_PATH MATCHES "^[a-z0-9.-]+\\.[a-z]+/[a-z0-9./_-]+$")
  # Upper case would need the proxy's !-escaping; the path has none.
  message(FATAL_ERROR "bindings/go/skn/go.mod: module path '${SKN_GO_MODULE_PATH}' is not a lower-case domain path")
endif()
set(SKN_GO_VERSION v${PROJECT_VERSION})
# The consumer test requires the module as a user would, by version: the
# library's (as the Python package's version is checked in SknInstall.cmake).
file(STRINGS ${PROJECT_SOURCE_DIR}/tests/consumers/go/go.mod _go_require REGEX "^require ")
if(NOT _go_require STREQUAL "require ${SKN_GO_MODULE_PATH} ${SKN_GO_VERSION}")
  message(FATAL_ERROR "tests/consumers/go/go.mod says '${_go_require}'; the binding is "
                      "${SKN_GO_MODULE_PATH} ${SKN_GO_VERSION}: update it")
endif()

execute_process(COMMAND git log -1 --format=%cI WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  OUTPUT_VARIABLE _go_time OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _go_git_rc)
if(NOT _go_git_rc EQUAL 0 OR _go_time STREQUAL "")
  set(_go_time "2026-11-30T00:00:00Z")
endif()

set(_go_proxy ${PROJECT_BINARY_DIR}/goproxy)
set(_go_stage ${PROJECT_BINARY_DIR}/goproxy-stage)
set(_go_prefix ${SKN_GO_MODULE_PATH}@${SKN_GO_VERSION})
set(_go_at ${_go_proxy}/${SKN_GO_MODULE_PATH}/@v)
file(REMOVE_RECURSE ${_go_proxy} ${_go_stage})
file(MAKE_DIRECTORY ${_go_at} ${_go_stage}/${_go_prefix})
set(_go_zip_members ${_go_prefix}/LICENSE ${_go_prefix}/go.mod)
file(COPY ${PROJECT_SOURCE_DIR}/LICENSE ${_go_dir}/go.mod DESTINATION ${_go_stage}/${_go_prefix})
foreach(f IN LISTS _go_files)
  file(COPY ${_go_dir}/${f} DESTINATION ${_go_stage}/${_go_prefix})
  list(APPEND _go_zip_members ${_go_prefix}/${f})
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf ${_go_at}/${SKN_GO_VERSION}.zip --format=zip
                        "--mtime=1980-01-01 00:00:00 UTC" -- ${_go_zip_members}
  WORKING_DIRECTORY ${_go_stage} RESULT_VARIABLE _go_zip_rc ERROR_VARIABLE _go_zip_err)
if(NOT _go_zip_rc EQUAL 0)
  message(FATAL_ERROR "the Go module zip: ${_go_zip_err}")
endif()
file(COPY_FILE ${_go_dir}/go.mod ${_go_at}/${SKN_GO_VERSION}.mod)
file(WRITE ${_go_at}/list "${SKN_GO_VERSION}\n")
file(WRITE ${_go_at}/${SKN_GO_VERSION}.info "{\"Version\":\"${SKN_GO_VERSION}\",\"Time\":\"${_go_time}\"}\n")
file(REMOVE_RECURSE ${_go_stage})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_go_dir}/go.mod
  ${PROJECT_SOURCE_DIR}/tests/consumers/go/go.mod)

install(DIRECTORY ${_go_proxy}/ DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/skn/goproxy COMPONENT golang-skn-dev)
