// Checks the ACP proxy tests share: an error answer's message, and the one op the puppet agent's
// write journaled (`hashline log` in the workspace).
#pragma once

#include "../agent/agent_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace hashline::test {

/// The message of an error answer; empty for any other answer.
inline std::string errorMessage(const nlohmann::json& answer) {
  return answer.contains("error") ? answer["error"].value("message", "") : std::string();
}

/// The one op `hashline log` lists in `workspace`, checked to be the puppet agent's in ACP session
/// `session` on `backend` ("disk" or "buffer"); null (a test failure) unless there is exactly one.
inline nlohmann::json onlyPuppetOp(const std::string& workspace, const std::string& session,
                                   const std::string& backend) {
  CliRun log = runHashline({"log", "--json"}, workspace);
  EXPECT_EQ(log.exit_code, 0) << log.err;
  nlohmann::json ops = log.json()["ops"];
  EXPECT_EQ(ops.size(), 1u) << ops;
  if (ops.size() != 1) return nullptr;
  EXPECT_EQ(ops[0]["agent"], "puppet-agent");
  EXPECT_EQ(ops[0]["session"], session);
  EXPECT_EQ(ops[0]["backend"], backend);
  return ops[0];
}

} // namespace hashline::test
