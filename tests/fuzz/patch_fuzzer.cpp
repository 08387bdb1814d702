// Fuzzes the codex apply_patch form (engine/forms/patch_parser.h, patch_plan.h).
//
// Input: `<file text>\0<patch text>`. The patch is parsed (errors must be PATCH_INVALID), then
// planned against a virtual workspace holding the file text under every path the patch names
// except those starting with "new" (which do not exist). Every Update plan must satisfy the
// EditPlan properties (plan_checks.h) and its new_text must equal the plan applied to the base.
#include "engine/forms/patch_parser.h"
#include "engine/forms/patch_plan.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/plan_checks.h"

#include <optional>
#include <string>

HASHLINE_FUZZ_TARGET(patch) {
  using namespace hashline;
  fuzz::ByteReader input(data, size);
  std::string file_text(input.until('\0'));
  std::string_view patch_text = input.rest();

  auto patch = forms::parsePatch(patch_text);
  if (!patch) {
    FUZZ_CHECK(patch.error().code == ErrorCode::PatchInvalid, patch.error().message);
    return 0;
  }
  for (const forms::PatchHunk& hunk : patch->hunks) {
    FUZZ_CHECK(hunk.kind == forms::PatchHunk::Update || hunk.chunks.empty());
    FUZZ_CHECK(hunk.kind != forms::PatchHunk::Add || hunk.add_content.empty() ||
               hunk.add_content.back() == '\n');
  }
  forms::PatchFileReader read =
      [&](const std::string& path) -> Result<std::optional<forms::FileSnapshot>> {
    if (path.rfind("new", 0) == 0) return std::optional<forms::FileSnapshot>();
    return std::optional<forms::FileSnapshot>(forms::FileSnapshot{Rope(file_text), 7});
  };
  auto plan = forms::planPatch(*patch, read);
  if (!plan) return 0;
  for (const forms::PatchFilePlan& file : plan->files) {
    if (file.kind == forms::PatchFileKind::Update || file.kind == forms::PatchFileKind::Move) {
      FUZZ_CHECK(file.base.has_value());
      fuzz::checkPlan(file.plan, file_text, 7);
      FUZZ_CHECK(file.new_text.has_value());
      FUZZ_CHECK(file.new_text->toString() == applyPlan(Rope(file_text), file.plan).toString());
    }
    if (file.kind == forms::PatchFileKind::Delete) FUZZ_CHECK(!file.new_text.has_value());
  }
  return 0;
}
