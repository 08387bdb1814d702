// `hashline lsp`: parses its options, sets up logging, and serves LSP over stdio until exit.
#pragma once

#include <string>
#include <vector>

namespace hashline::cli {

int runLspCommand(std::vector<std::string> args);

} // namespace hashline::cli
