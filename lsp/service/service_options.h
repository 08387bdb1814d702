// ServiceOptions: the knobs of the agent service (timeouts of the apply pipeline, retries, the
// default tier and context of fresh anchors).
//
// `hashline lsp` reads them from the environment (`fromEnvironment`) so tests and users can
// shorten the editor timeouts without a flag: HASHLINE_APPLY_TIMEOUT_MS (wait for the answer to
// workspace/applyEdit), HASHLINE_CONFIRM_TIMEOUT_MS (after `applied:true`, wait for the mirror to
// show the predicted text), HASHLINE_APPLY_RETRIES (re-verify + resend when the user typed).
// Plain value type.
#pragma once

#include "engine/anchors/anchor.h"

#include <chrono>
#include <cstdint>

namespace hashline::lsp {

struct ServiceOptions {
  std::chrono::milliseconds apply_timeout{15000};
  std::chrono::milliseconds confirm_timeout{3000};
  int max_retries = 3;
  std::uint32_t context_lines = 3;
  Tier default_tier = Tier::Block;

  /// Defaults overridden by the HASHLINE_* variables above (invalid values are ignored).
  static ServiceOptions fromEnvironment();
};

} // namespace hashline::lsp
