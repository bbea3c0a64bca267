/* SPDX-License-Identifier: MIT */
/* One function added to libskn in a new version node (tests/abi/libskn-added.map):
 * the library with it is what a correct 1.1 looks like to the ABI gate
 * self-test. Never part of the real library. */
unsigned skn_selftest_added(void);
unsigned skn_selftest_added(void) { return 42u; }
