// Builds the agent tests' sandbox and CLI helpers (tests/lsp/agent/agent_test_util.h) into this
// folder's test binary too, so the proxy tests set up workspaces and sidecars the same way.
#include "../agent/agent_test_util.cpp"
