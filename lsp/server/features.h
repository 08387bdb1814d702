// The feature list of `hashline lsp`: the one place where features are wired into the server.
//
// Each feature lives in its own file and exposes `registerX(LspServer&)`; adding a feature
// (hashline.read, hashline.edit, the agent endpoint, ...) is one line in features.cpp.
#pragma once

namespace hashline::lsp {

class LspServer;

void registerAllFeatures(LspServer& server);

} // namespace hashline::lsp
