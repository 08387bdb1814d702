# bash completion for hashline: subcommands, then files (installed to
# share/bash-completion/completions/hashline).
_hashline() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "lsp read edit replace headtail range patch draft ed status mcp acp log diff undo rewind turn pending accept reject setup doctor --help --version" -- "$cur"))
  elif [ "${COMP_WORDS[1]}" = setup ] && [ "$COMP_CWORD" -eq 2 ]; then
    COMPREPLY=($(compgen -W "claude codex gemini vscode-copilot opencode copilot pi zed jetbrains" -- "$cur"))
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "--help" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _hashline hashline
