# SPDX-License-Identifier: MIT
# The install directories (GNUInstallDirs), with one rule for the library
# directory that does not depend on the configure history.
#
# GNUInstallDirs alone picks lib/<multiarch> when CMAKE_INSTALL_PREFIX is /usr
# at configure time and "lib" for any other prefix, and re-decides when the
# prefix changes. So `cmake --install build --prefix P` put the library in
# P/lib or in P/lib/x86_64-linux-gnu depending on whether the build tree had
# once been configured for /usr (scripts/package-and-install does that), and
# the install prefix given at install time played no part.
#
# skn's rule: on a multiarch system (Debian, Ubuntu: the compiler reports a
# triplet) the libdir is lib/<multiarch> for EVERY prefix, which is where the
# Debian packages need it (Multi-Arch: same) and where Debian's loader and
# pkg-config look under /usr/local too; elsewhere GNUInstallDirs' default
# (lib64 or lib). -DCMAKE_INSTALL_LIBDIR=... chooses another, and is kept
# across reconfigures.
if(DEFINED CMAKE_INSTALL_LIBDIR)
  if(DEFINED SKN_LIBDIR_LAST)
    # Changed since skn last chose it: by -D or a cache editor.
    if(NOT CMAKE_INSTALL_LIBDIR STREQUAL SKN_LIBDIR_LAST)
      set(SKN_LIBDIR_EXPLICIT ON CACHE INTERNAL "CMAKE_INSTALL_LIBDIR was chosen by the user")
    endif()
  elseif(NOT DEFINED _GNUInstallDirs_LAST_CMAKE_INSTALL_PREFIX)
    # A fresh build tree configured with -DCMAKE_INSTALL_LIBDIR=...
    set(SKN_LIBDIR_EXPLICIT ON CACHE INTERNAL "CMAKE_INSTALL_LIBDIR was chosen by the user")
  endif()
  # Otherwise a tree configured before this rule existed: GNUInstallDirs'
  # own default is in the cache, replaced below.
endif()

set(_skn_libdir_before "${CMAKE_INSTALL_LIBDIR}")
include(GNUInstallDirs)

if(SKN_LIBDIR_EXPLICIT AND NOT CMAKE_INSTALL_LIBDIR STREQUAL _skn_libdir_before)
  # GNUInstallDirs resets a libdir equal to its old default when the prefix
  # changes; a user's choice stays.
  set_property(CACHE CMAKE_INSTALL_LIBDIR PROPERTY VALUE "${_skn_libdir_before}")
  set(CMAKE_INSTALL_LIBDIR "${_skn_libdir_before}")
  GNUInstallDirs_get_absolute_install_dir(CMAKE_INSTALL_FULL_LIBDIR CMAKE_INSTALL_LIBDIR LIBDIR)
elseif(CMAKE_LIBRARY_ARCHITECTURE AND NOT SKN_LIBDIR_EXPLICIT)
  set_property(CACHE CMAKE_INSTALL_LIBDIR PROPERTY VALUE "lib/${CMAKE_LIBRARY_ARCHITECTURE}")
  set(CMAKE_INSTALL_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}")
  GNUInstallDirs_get_absolute_install_dir(CMAKE_INSTALL_FULL_LIBDIR CMAKE_INSTALL_LIBDIR LIBDIR)
endif()
set(SKN_LIBDIR_LAST "${CMAKE_INSTALL_LIBDIR}" CACHE INTERNAL "the libdir of the last configure")
message(STATUS "skn: libdir ${CMAKE_INSTALL_LIBDIR}")
