-- :checkhealth hashline — Neovim version, the sidecar binary (found, `--version` runs), the
-- plugin's setup and options, the running hashline clients (root, position encoding, attached
-- buffers, the commands the server offers) and their restarts after crashes. Works with the
-- reporters of 0.7 (health#report_*), 0.8-0.9 (vim.health.report_*) and 0.10+ (vim.health.*).
local config = require('hashline.config')
local compat = require('hashline.compat')

local M = {}

local expected_commands = {
  'hashline.read', 'hashline.edit', 'hashline.replace', 'hashline.patch', 'hashline.undo',
  'hashline.rewind', 'hashline.log', 'hashline.status', 'hashline.pending', 'hashline.accept',
  'hashline.reject',
}

local function check_neovim(h)
  local v = vim.version()
  local text = string.format('Neovim %d.%d.%d', v.major, v.minor, v.patch)
  if compat.has('0.7') then
    local how = vim.lsp.start and 'vim.lsp.start' or 'vim.lsp.start_client'
    if vim.lsp.config and vim.lsp.enable then
      how = how .. "; vim.lsp.enable('hashline') available (lsp/hashline.lua)"
    end
    h.ok(text .. ' (' .. how .. ')')
  else
    h.error(text .. ': hashline needs Neovim 0.7 or newer')
  end
end

local function check_binary(h, cfg)
  local bin = cfg.cmd and cfg.cmd[1]
  -- a running client's own command (vim.lsp.config('hashline', {cmd}) may set another one)
  local running = compat.get_clients({ name = 'hashline' })[1]
  local running_cmd = running and running.config and require('hashline.supervisor').unwrapped(running.config.cmd)
  if type(running_cmd) == 'table' and type(running_cmd[1]) == 'string' then
    bin = running_cmd[1]
  end
  if type(bin) ~= 'string' or vim.fn.executable(bin) ~= 1 then
    h.error("hashline binary not found: '" .. tostring(bin) .. "'",
      { "install hashline or set cmd = { '/path/to/hashline', 'lsp' } in require('hashline').setup{}" })
    return
  end
  local path = vim.fn.exepath(bin)
  local out = vim.fn.system({ bin, '--version' })
  local version = out:match('^hashline%s+(%S+)')
  if vim.v.shell_error ~= 0 or not version then
    h.error(string.format("'%s --version' failed (exit %d): %s", path, vim.v.shell_error, vim.trim(out)))
    return
  end
  h.ok(string.format('hashline %s (%s)', version, path))
end

-- vim.lsp.enable('hashline') is in effect (0.11+; vim.lsp.is_enabled from 0.12).
local function lsp_enabled()
  if vim.lsp.is_enabled then
    return vim.lsp.is_enabled('hashline')
  end
  return type(vim.lsp._enabled_configs) == 'table' and vim.lsp._enabled_configs.hashline ~= nil
end

local function check_setup(h, cfg)
  if not require('hashline').did_setup and lsp_enabled() then
    h.ok("vim.lsp.enable('hashline') attaches file buffers (setup{} not called: default options)")
  elseif not require('hashline').did_setup then
    h.warn("require('hashline').setup{} has not been called: nothing attaches automatically",
      { "call require('hashline').setup{} in your init.lua" })
  end
  if not require('hashline').did_setup then
    return
  end
  h.ok(string.format('setup done: autostart=%s, agent_socket=%s, tier=%s, position_encoding=%s, debounce=%d ms',
    tostring(cfg.autostart), tostring(cfg.agent_socket), tostring(cfg.tier or 'server default'),
    cfg.position_encoding, cfg.debounce))
  if cfg.reconcile == 'off' then
    h.warn("reconcile is 'off': files other programs write behind open buffers are not merged",
      { "require('hashline').setup{ reconcile = 'merge' }" })
  else
    h.ok("reconcile = '" .. cfg.reconcile .. "': disk writes by other programs are merged into open buffers")
  end
  if cfg.debounce > 200 then
    h.warn('debounce is ' .. cfg.debounce .. ' ms: each agent edit is confirmed by the next didChange, so it waits that long')
  end
end

local function buffer_names(client)
  local names = {}
  for bufnr in pairs(client.attached_buffers or {}) do
    if vim.api.nvim_buf_is_valid(bufnr) then
      table.insert(names, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.'))
    end
  end
  table.sort(names)
  return names
end

local function check_clients(h)
  local clients = compat.get_clients({ name = 'hashline' })
  if #clients == 0 then
    h.warn('no hashline client is running', { 'open a file (autostart) or run :HashlineAttach' })
    return
  end
  for _, client in ipairs(clients) do
    local names = buffer_names(client)
    local root = client.config and client.config.root_dir or '?'
    if not client.initialized then
      h.warn(string.format('client %d (%s): not initialized yet', client.id, root))
    elseif #names == 0 then
      h.warn(string.format('client %d (%s): running, no buffer attached', client.id, root))
    else
      h.ok(string.format('client %d attached: root %s, position encoding %s, %d buffer(s): %s', client.id, root,
        tostring(client.offset_encoding), #names, table.concat(names, ', ')))
    end
    local provider = client.server_capabilities and client.server_capabilities.executeCommandProvider
    local offered = type(provider) == 'table' and provider.commands or {}
    local missing = {}
    for _, name in ipairs(expected_commands) do
      if not vim.tbl_contains(offered, name) then
        table.insert(missing, name)
      end
    end
    if #missing == 0 then
      h.ok('server offers every hashline command')
    else
      h.info('server does not offer: ' .. table.concat(missing, ', '))
    end
  end
end

-- The supervisor (hashline.supervisor): restarts after crashes, and why it gave up.
local function check_restarts(h)
  local report, opts, lost = require('hashline.supervisor').report()
  if #lost > 0 then
    h.warn('Neovim no longer sends the changes of: ' .. table.concat(lost, ', ')
      .. ' (they changed while no language client was attached), so they are not attached again',
      { ':write and :edit each (or close and reopen it) to attach it again' })
  end
  if not opts then
    h.info('restart = false: a crashed sidecar is not started again (:HashlineRestart starts it)')
  end
  if #report == 0 then
    if opts then
      h.ok(string.format('no sidecar crash (restarts after a crash, giving up after %d within %d s)',
        opts.max_crashes, math.floor(opts.window_ms / 1000)))
    end
    return
  end
  for _, entry in ipairs(report) do
    local text = string.format('sidecar for %s: %d crash(es), restarted %d time(s); last exit: %s%s', entry.root,
      entry.crashes, entry.restarts, tostring(entry.last_exit or 'none'),
      entry.last_exit_asked and ' (a stop the plugin asked for)' or '')
    if entry.gave_up then
      h.error(text .. '; gave up: ' .. entry.gave_up, { ':HashlineRestart starts it again',
        'run the sidecar with --log-file (setup{ cmd = {...} }) to see why it crashes' })
    elseif entry.last_error then
      h.warn(text .. '; the last restart failed: ' .. entry.last_error)
    else
      h.ok(text)
    end
  end
end

-- Claude Code's IDE end (:help hashline-claude): the lock file a hashline sidecar wrote for
-- this Neovim's roots, when the IDE server is on; only an info line otherwise.
local function check_claude_ide(h)
  local base = os.getenv('CLAUDE_CONFIG_DIR')
  if not base or base == '' then
    local home = os.getenv('HOME')
    if not home or home == '' then
      return
    end
    base = home .. '/.claude'
  end
  local dir = base .. '/ide'
  local roots = {}
  for _, client in ipairs(compat.get_clients({ name = 'hashline' })) do
    if client.config and client.config.root_dir then
      roots[client.config.root_dir] = true
    end
  end
  -- What the sidecars said themselves (hashline/claudeIde): the port and who is connected.
  local claude_ide = require('hashline.claude_ide')
  local told = false
  for _, client in ipairs(compat.get_clients({ name = 'hashline' })) do
    local state = claude_ide.state(client.id)
    if type(state) == 'table' and state.enabled then
      told = true
      local where = 'Claude Code IDE server on 127.0.0.1:' .. tostring(state.port) .. ' (' .. tostring(state.lockFile) .. ')'
      local connected = claude_ide.describe_clients(state)
      if connected ~= '' then
        h.ok(where .. '; connected: ' .. connected .. ' (:HashlineSendToClaude mentions lines)')
      else
        h.ok(where .. '; no Claude Code connected: start it with `hashline claude`')
      end
    end
  end
  if told then
    return
  end
  local found = {}
  for _, path in ipairs(vim.fn.glob(dir .. '/*.lock', false, true)) do
    local f = io.open(path, 'r')
    local ok, lock = pcall(vim.fn.json_decode, f and f:read('*a') or '')
    if f then
      f:close()
    end
    if ok and type(lock) == 'table' and lock.ideName == 'hashline' and type(lock.workspaceFolders) == 'table' then
      for _, folder in ipairs(lock.workspaceFolders) do
        if roots[folder] then
          table.insert(found, path)
          break
        end
      end
    end
  end
  if #found > 0 then
    h.ok('Claude Code IDE server on: ' .. table.concat(found, ', ')
      .. ' (start Claude Code with `hashline claude`; :HashlineSendToClaude mentions lines)')
  else
    h.info('Claude Code IDE server off (setup{ claude_ide = true } turns it on; lock files in ' .. dir .. ')')
  end
end

function M.check()
  local h = compat.health()
  local cfg = config.get()
  h.start('hashline')
  check_neovim(h)
  check_binary(h, cfg)
  check_setup(h, cfg)
  check_clients(h)
  check_restarts(h)
  check_claude_ide(h)
  require('hashline.codecompanion').health(h)
end

return M
