// SPDX-License-Identifier: MIT
module skn.example/skn

go 1.19
