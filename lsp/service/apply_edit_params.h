// The workspace/applyEdit one buffer edit sends (DESIGN §6): ONE versioned TextDocumentEdit —
// the URI as the client spelled it, `version` = the exact mirror version the plan was made on —
// holding the minimal TextEdits of the plan (engine/diff) in the negotiated position encoding.
// An edit sent for the user's confirmation (issue 9) has every TextEdit annotated with one
// change annotation that `needsConfirmation` (confirmationName: how results name the choice).
// Pure: builds params, sends nothing.
#pragma once

#include "lsp/protocol/workspace_edit.h"
#include "lsp/service/edit_planner.h"

#include <cstdint>
#include <string>

namespace hashline::lsp {

/// "line 3" or "lines 3-5" of 0-based lines.
std::string linesText(std::uint32_t first0, std::uint32_t last0);

ApplyWorkspaceEditParams applyEditParams(const std::string& uri, std::int64_t version,
                                         const std::string& label, const PlannedEdit& planned,
                                         PositionEncoding encoding, bool needs_confirmation);

} // namespace hashline::lsp
