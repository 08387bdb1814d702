// `hashline conflicts [PATH]` and `hashline resolve ID --take theirs|ours`: the disk writes a
// reconciliation kept out of a buffer because they overlap the user's unsaved typing
// (docs/reconcile.md), listed with both sides, and taken or dropped one by one.
#pragma once

#include <string>
#include <vector>

namespace hashline::cli {

int runConflictsCommand(std::vector<std::string> args);
int runResolveCommand(std::vector<std::string> args);

} // namespace hashline::cli
