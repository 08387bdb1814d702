// The pre-match checks of the text forms; see read_guard.h.
#include "engine/forms/read_guard.h"

namespace hashline::forms {

Status checkReadGuard(const ReadGuard& guard) {
  const std::string name = guard.path.empty() ? "the file" : "\"" + guard.path + "\"";
  if (!guard.observed && !guard.creates_file) {
    Error error = Error::make(ErrorCode::NotObserved, "edit requires reading " + name + " first");
    if (!guard.path.empty()) error.data.path = guard.path;
    return error;
  }
  if (guard.read_version && *guard.read_version != guard.current_version &&
      !guard.same_text_as_read) {
    Error error = Error::make(ErrorCode::StaleVersion,
                              "cannot edit " + name +
                                  ": it changed since it was read (read at "
                                  "version " +
                                  std::to_string(*guard.read_version) + ", now at version " +
                                  std::to_string(guard.current_version) + ")");
    if (!guard.path.empty()) error.data.path = guard.path;
    return error;
  }
  return Status::success();
}

} // namespace hashline::forms
