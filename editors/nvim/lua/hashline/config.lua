-- Options of the hashline plugin: the defaults, the merge of the user's table from
-- require('hashline').setup{}, and the checks on it. Read by every other module through
-- config.get(); main loop only.
local compat = require('hashline.compat')

local M = {}

M.defaults = {
  -- Command that starts the sidecar. A string is taken as the binary's path ('lsp' is appended).
  cmd = { 'hashline', 'lsp' },
  -- Extra environment for the server process (table of NAME = value), or nil.
  cmd_env = nil,
  -- Attach automatically to file buffers as they are read or created.
  autostart = true,
  -- nil = every filetype; otherwise a list of filetypes to attach to ('' = no filetype).
  filetypes = nil,
  -- Filetypes never attached (checked after `filetypes`).
  exclude_filetypes = {},
  -- Files larger than this many bytes are not attached (nil = no limit).
  max_filesize = nil,
  -- Markers whose nearest ancestor directory becomes the workspace root (one server per root).
  root_markers = { '.git', '.hg', '.svn', '.jj' },
  -- Or a function(path) -> root directory (string) or nil to fall back to the markers.
  root_dir = nil,
  -- Anchor tier for reads from the Lua API and the commands: 'line', 'block' or 'chain'
  -- (nil = the server's default, 'block').
  tier = nil,
  -- Agent session id for the Lua API (nil = the server's per-connection default).
  session = nil,
  -- Ask the server to open its private agent socket, so the `hashline` CLI and `hashline mcp`
  -- reach this editor's unsaved buffers.
  agent_socket = true,
  -- Position encoding we prefer to offer: 'utf-8' (offered first, then utf-16) or 'utf-16'.
  position_encoding = 'utf-8',
  -- Milliseconds Neovim may hold back didChange. The server confirms each applied edit by the
  -- next didChange, so keep this small; 0 sends every change at once.
  debounce = 0,
  -- Refuse (applied=false) a server edit whose document version is not exactly the buffer's.
  strict_versions = true,
  -- Milliseconds a synchronous API call or user command waits for the server.
  timeout = 10000,
  -- Extra initializationOptions merged into what the plugin sends.
  init_options = nil,
  -- Called as on_attach(client, bufnr) after the client attached to a buffer.
  on_attach = nil,
  -- Signs on pending (unreviewed) agent hunks (see :help hashline-review).
  review_signs = true,
  -- The sign's text (one or two display cells).
  review_sign_text = '▎',
  -- Milliseconds after the last change of a buffer before its signs are refreshed.
  review_debounce = 250,
  -- Show the lines each pending hunk removed or replaced above it, as virtual lines in DiffDelete
  -- (:HashlineRemoved on|off|toggle|all switches it while Neovim runs).
  review_removed = true,
  -- A hunk that removed more lines than this shows that many minus one and a line saying how many
  -- more there are (:HashlineRemoved all shows them all; :HashlineDiff shows the hunk side by side).
  review_removed_max = 8,
  -- Ask the server to send every agent edit for confirmation (initializationOptions.confirmEdits);
  -- a request's own `confirm` still wins.
  confirm_edits = false,
  -- How an edit that needs confirmation is confirmed: nil = as Neovim does (before 0.12 applied
  -- without a prompt; 0.12+ a confirm() dialog, asked by the plugin so a "No" is answered
  -- honestly), true = a confirm() dialog, or a function(params) returning false to decline.
  confirm_prompt = nil,
  -- What the sidecar does when another program (an agent's own edit tool, git, sed) writes a file
  -- open here: 'merge' (default) merges the write into the buffer, keeping unsaved typing and
  -- listing overlaps as conflicts; 'clean' takes it only into buffers without unsaved changes;
  -- 'off' leaves it to Neovim (W12 prompt / reload). See :help hashline-reconcile.
  reconcile = 'merge',
  -- Forward the diagnostics Neovim holds (vim.diagnostic, every language server's) to the sidecar,
  -- so agents' edit results report what they introduced or removed (:help hashline-diagnostics).
  diagnostics = true,
  -- Tell the sidecar the current selection and the visible windows (debounced), so agents can
  -- ask what the user has selected (`hashline context`; :help hashline-context).
  share_selection = true,
  -- Serve Claude Code's IDE protocol (WebSocket on 127.0.0.1 and a lock file): Claude Code
  -- started with `hashline claude` sees the selection and diagnostics, and its edits come as a
  -- review of the live buffer (:help hashline-claude).
  claude_ide = false,
  -- Start the sidecar again when it crashes (a non-zero exit or a signal other than SIGTERM) and
  -- attach every buffer it held, unsaved text included (:help hashline-restart). true, false, or
  -- a table overriding { max_crashes = 5, window_ms = 60000, backoff_ms = 250,
  -- max_backoff_ms = 8000 }: the first retry waits backoff_ms, each next one twice as long (at
  -- most max_backoff_ms); max_crashes crashes within window_ms and it gives up until
  -- :HashlineRestart.
  restart = true,
  -- codecompanion.nvim, when present: its ACP agents start through `hashline acp` and its chats
  -- get the tools hashline_read / hashline_edit (:help hashline-codecompanion). false turns both
  -- off; { acp = false } or { tools = false } one of them.
  codecompanion = true,
}

local current = vim.deepcopy(M.defaults)

-- Every option name (the defaults table cannot list the ones whose default is nil).
local option_names = { 'cmd', 'cmd_env', 'autostart', 'filetypes', 'exclude_filetypes', 'max_filesize',
  'root_markers', 'root_dir', 'tier', 'session', 'agent_socket', 'position_encoding', 'debounce',
  'strict_versions', 'timeout', 'init_options', 'on_attach', 'review_signs', 'review_sign_text', 'review_debounce',
  'review_removed', 'review_removed_max',
  'confirm_edits', 'confirm_prompt', 'reconcile', 'diagnostics', 'share_selection',
  'claude_ide', 'restart', 'codecompanion' }
local known = {}
for _, name in ipairs(option_names) do
  known[name] = true
end

local function normalize_cmd(cmd)
  if type(cmd) == 'string' then
    return { cmd, 'lsp' }
  end
  return cmd
end

-- Merges `user` over the defaults and makes it the current configuration. Errors on bad types.
function M.setup(user)
  user = user or {}
  local types = {
    cmd = { 'table', 'string' },
    cmd_env = 'table',
    autostart = 'boolean',
    filetypes = 'table',
    exclude_filetypes = 'table',
    max_filesize = 'number',
    root_markers = 'table',
    root_dir = 'function',
    tier = 'string',
    session = 'string',
    agent_socket = 'boolean',
    position_encoding = 'string',
    debounce = 'number',
    strict_versions = 'boolean',
    timeout = 'number',
    init_options = 'table',
    on_attach = 'function',
    review_signs = 'boolean',
    review_sign_text = 'string',
    review_debounce = 'number',
    review_removed = 'boolean',
    review_removed_max = 'number',
    confirm_edits = 'boolean',
    confirm_prompt = { 'boolean', 'function' },
    reconcile = 'string',
    diagnostics = 'boolean',
    share_selection = 'boolean',
    claude_ide = 'boolean',
    restart = { 'boolean', 'table' },
    codecompanion = { 'boolean', 'table' },
  }
  for _, name in ipairs(option_names) do
    if types[name] then
      compat.validate(name, user[name], types[name], true)
    end
  end
  if user.reconcile and not vim.tbl_contains({ 'off', 'clean', 'merge' }, user.reconcile) then
    error("hashline: reconcile must be 'off', 'clean' or 'merge', got " .. vim.inspect(user.reconcile))
  end
  if user.tier and not vim.tbl_contains({ 'line', 'block', 'chain' }, user.tier) then
    error("hashline: tier must be 'line', 'block' or 'chain', got " .. vim.inspect(user.tier))
  end
  if user.position_encoding and not vim.tbl_contains({ 'utf-8', 'utf-16' }, user.position_encoding) then
    error("hashline: position_encoding must be 'utf-8' or 'utf-16'")
  end
  if type(user.restart) == 'table' then
    for key, value in pairs(user.restart) do
      if not vim.tbl_contains({ 'max_crashes', 'window_ms', 'backoff_ms', 'max_backoff_ms' }, key) then
        error('hashline: unknown restart option ' .. tostring(key))
      end
      if type(value) ~= 'number' or value < 0 then
        error('hashline: restart.' .. key .. ' must be a number >= 0, got ' .. vim.inspect(value))
      end
    end
  end
  local merged = vim.deepcopy(M.defaults)
  for key, value in pairs(user) do
    if not known[key] then
      error('hashline: unknown option ' .. tostring(key))
    end
    merged[key] = value
  end
  merged.cmd = normalize_cmd(merged.cmd)
  current = merged
  return current
end

function M.get()
  return current
end

return M
