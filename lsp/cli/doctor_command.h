// `hashline doctor`: what is installed (this binary and its version, `hashline` on PATH, the
// Neovim plugin in a packpath, the VS Code extension), which agents have hashline registered
// (setup_targets.h's files) and whether their command runs, and whether a sidecar serves the
// current directory (discovery + one `status` call on its agent socket). Each problem is printed
// with a `fix:` line. Exit 0 when healthy, 1 when a problem was found, 2 on usage.
#pragma once

#include <string>
#include <vector>

namespace hashline::cli {

int runDoctorCommand(std::vector<std::string> args);

} // namespace hashline::cli
