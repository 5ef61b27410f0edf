// SPDX-License-Identifier: MIT
// The translation unit that builds the test executables' shared precompiled header
// (tests/CMakeLists.txt, proxima_test_pch); it has no code of its own.
