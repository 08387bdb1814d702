#!/usr/bin/env bash
# The review UI of the Neovim plugin (issue 9): headless Neovim ($HASHLINE_NVIM, default nvim;
# see tests/editors/neovim/nvim-env.sh) with editors/nvim on 'runtimepath' and
# require('hashline').setup{}; an agent op of 3 hunks through the `hashline` CLI gets 3 signs at
# the right lines, the signs follow the user's typing, :HashlineReview lists the hunks in the
# quickfix list at their current lines, the quickfix mappings reject / accept hunks (the user's
# typing kept, the buffer unsaved), and an edit sent with `confirm` (LSP change annotations,
# needsConfirmation) applies — or is refused when the user declines; without confirm_prompt 0.12+
# asks once (a "No" is refused) and older versions apply without asking; :checkhealth hashline
# has no warning or error. removed_test.lua (issue 34): the lines each pending hunk removed are
# virtual lines above it (folded when long), :HashlineRemoved switches them, :HashlineDiff opens a
# hunk's or an op's text before ↔ the live buffer, reject/keep messages say what happened in words,
# the reject is the user's decision in the journal. Any deprecation fails.
# Usage: HASHLINE_BIN=build/hashline tests/editors/nvim-review/run.sh   (KEEP=1 keeps the work dir)
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../neovim/nvim-env.sh"
nvim_suite_run nvim-review 23 "$here/review_test.lua" "$here/removed_test.lua"
