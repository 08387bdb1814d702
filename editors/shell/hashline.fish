# fish completion for hashline: subcommands, then files (installed to
# share/fish/vendor_completions.d/hashline.fish).
complete -c hashline -s h -l help -d 'show the help'
complete -c hashline -l version -d 'print the version'
complete -c hashline -n __fish_use_subcommand -a lsp
complete -c hashline -n __fish_use_subcommand -a read
complete -c hashline -n __fish_use_subcommand -a edit
complete -c hashline -n __fish_use_subcommand -a replace
complete -c hashline -n __fish_use_subcommand -a headtail
complete -c hashline -n __fish_use_subcommand -a range
complete -c hashline -n __fish_use_subcommand -a patch
complete -c hashline -n __fish_use_subcommand -a draft
complete -c hashline -n __fish_use_subcommand -a ed
complete -c hashline -n __fish_use_subcommand -a status
complete -c hashline -n __fish_use_subcommand -a mcp
complete -c hashline -n __fish_use_subcommand -a acp
complete -c hashline -n __fish_use_subcommand -a log
complete -c hashline -n __fish_use_subcommand -a diff
complete -c hashline -n __fish_use_subcommand -a undo
complete -c hashline -n __fish_use_subcommand -a rewind
complete -c hashline -n __fish_use_subcommand -a turn
complete -c hashline -n __fish_use_subcommand -a pending
complete -c hashline -n __fish_use_subcommand -a accept
complete -c hashline -n __fish_use_subcommand -a reject
complete -c hashline -n __fish_use_subcommand -a setup
complete -c hashline -n __fish_use_subcommand -a doctor
complete -c hashline -n '__fish_seen_subcommand_from setup' -a 'claude codex gemini vscode-copilot opencode copilot pi zed jetbrains'
