// ReconcileOptions: whether and how foreign disk writes to open documents are merged (issue 13,
// docs/reconcile.md), and the timings that decide when a written file is stable enough to read.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace hashline::lsp {

enum class ReconcileMode {
  Off,   // not watched
  Clean, // only buffers without unsaved changes take the disk's change
  Merge, // clean buffers take it; dirty ones get a 3-way merge (the default)
};

/// "off" | "clean" | "merge"; nullopt for anything else.
std::optional<ReconcileMode> parseReconcileMode(std::string_view text);
std::string_view reconcileModeName(ReconcileMode mode);

struct ReconcileOptions {
  ReconcileMode mode = ReconcileMode::Merge;
  /// Quiet time after the last event of a closed (or renamed-in) file before it is read. Such a
  /// file is complete (the read is checked for consistency anyway); the wait only coalesces the
  /// events of one operation and of writes that follow at once.
  std::chrono::milliseconds quiet{3};
  /// Quiet time while a writer still holds the file open (IN_MODIFY without IN_CLOSE_WRITE).
  std::chrono::milliseconds open_writer_quiet{120};
  /// A file open for writing is read anyway after this long (a writer that never closes).
  std::chrono::milliseconds open_writer_limit{2000};
  /// A file that became empty must stay empty and untouched (no write event) this long before
  /// that is taken (truncate, pause, write must never surface the empty state).
  std::chrono::milliseconds empty_grace{750};
  /// A file that disappeared must stay away this long before the user is told (git checkout and
  /// some editors unlink and recreate).
  std::chrono::milliseconds missing_grace{400};
  /// A write seen within this long of the user's last keystroke may be the editor's own save
  /// whose didChange (debounced) or didSave is still on the way ...
  std::chrono::milliseconds typing_window{300};
  /// ... so the reconciler waits this long, once, for either before calling it foreign. Also the
  /// wait for a didSave when the buffer took the disk's text right after the write.
  std::chrono::milliseconds save_wait{150};
  /// After a didSave, how long the mirror may lag behind the saved text (debounced didChange:
  /// Neovim's default is 150 ms) before the text is taken as a foreign write after all.
  std::chrono::milliseconds save_settle{750};
  /// After a willSave, how long a write may still be that save while its didSave has not come
  /// (a save that failed sends none).
  std::chrono::milliseconds announced_save_limit{2000};
  /// A buffer without unsaved changes is left this long for the editor to reload it from disk
  /// itself before hashline applies the change (0: the editor does not — Neovim). VS Code reloads
  /// clean buffers on its own: its reload keeps the tab clean (and is journaled as the merge),
  /// where hashline's edit would mark it dirty. Set at initialize for the VS Code extension.
  std::chrono::milliseconds editor_reload_wait{0};
  /// What initialize sets editor_reload_wait to for VS Code (its watcher reports a write within
  /// a few hundred milliseconds).
  static constexpr std::chrono::milliseconds kVsCodeReloadWait{1500};
  /// The editor sends a save's didChange before its didSave (VS Code): a buffer version after the
  /// one a didSave reported is not that save's text — it is the editor's reload of a foreign
  /// write, even right after a save. Neovim sends the pending didChange with the didSave, after
  /// its write (BufWritePost), so there any version of the save's round may be the saved text.
  bool changes_before_save = false;

  /// VS Code's behaviour (initialize, for the VS Code extension): the two settings above.
  void adoptVsCode() {
    editor_reload_wait = kVsCodeReloadWait;
    changes_before_save = true;
  }
  /// Larger files are not merged (the user is told).
  std::size_t max_bytes = 256u << 20;
  /// Who the journal names for a merged write: HASHLINE_AGENT, else "disk".
  std::string agent = "disk";

  /// Defaults, with the agent from HASHLINE_AGENT and the mode from HASHLINE_RECONCILE.
  static ReconcileOptions fromEnvironment();
};

} // namespace hashline::lsp
