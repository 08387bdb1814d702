// ServiceOptions: the knobs of the agent service (timeouts of the apply pipeline, retries, the
// default tier and context of fresh anchors).
//
// `hashline lsp` reads them from the environment (`fromEnvironment`) so tests and users can
// shorten the editor timeouts without a flag: HASHLINE_APPLY_TIMEOUT_MS (wait for the answer to
// workspace/applyEdit), HASHLINE_CONFIRM_TIMEOUT_MS (after `applied:true`, wait for the mirror to
// show the predicted text), HASHLINE_APPLY_RETRIES (re-verify + resend when the user typed),
// HASHLINE_CONFIRM_EDITS=1 (send agent edits for the user's confirmation by default, issue 9) and
// HASHLINE_CONFIRM_APPLY_TIMEOUT_MS (how long such an edit may wait for the user's answer).
// Plain value type.
#pragma once

#include "engine/anchors/anchor.h"

#include <chrono>
#include <cstdint>

namespace hashline::lsp {

struct ServiceOptions {
  std::chrono::milliseconds apply_timeout{15000};
  std::chrono::milliseconds confirm_timeout{3000};
  /// The apply timeout of an edit sent with `needsConfirmation`: a human answers it.
  std::chrono::milliseconds confirm_apply_timeout{120000};
  /// Session default of the per-request `confirm` (LSP initializationOptions.confirmEdits wins).
  bool confirm_edits = false;
  int max_retries = 3;
  std::uint32_t context_lines = 3;
  Tier default_tier = Tier::Block;

  /// Defaults overridden by the HASHLINE_* variables above (invalid values are ignored).
  static ServiceOptions fromEnvironment();
};

} // namespace hashline::lsp
