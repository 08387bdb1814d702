// The paths of the `hashline` under test. They are compiled into hashline_binary.cpp alone, so
// every other test object's command line is the same in any build directory (build/,
// build-portable/) and a compiler cache shares them.
#pragma once

namespace hashline::test {

// What the process tests run: the built binary, or in a cross build the emulator's launcher
// script for it.
const char* hashlineBinary();

// The built binary itself, also in a cross build (the path the program reports as its own).
const char* hashlineTargetBinary();

} // namespace hashline::test
