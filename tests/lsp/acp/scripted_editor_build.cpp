// Builds the agent tests' scripted editor (tests/lsp/agent/scripted_editor.h) into this folder's
// test binary too, so the proxy tests with an editor attached play it the same way.
#include "../agent/scripted_editor.cpp"
