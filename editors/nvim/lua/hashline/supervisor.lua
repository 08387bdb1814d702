-- Brings a crashed `hashline lsp` back (issue 31). The client's on_exit (attach.lua) reports each
-- exit here with the buffers the client held. An unexpected exit — a non-zero exit code or a
-- signal other than SIGTERM (15, how Neovim stops a server), while Neovim is not quitting and
-- nobody asked for the stop — starts the sidecar of that root again and attaches every buffer it
-- held: the new client's didOpen carries the buffer's current text (unsaved typing included), so
-- the new sidecar mirrors what the user sees. The user is told once per crash window, not on every
-- try. After `max_crashes` crashes within `window_ms` it gives up with an error message;
-- :HashlineRestart (M.restart) starts it again by hand and :checkhealth hashline shows the
-- restarts and why it gave up (M.report).
--
-- A buffer must never be left without a client while it is being edited: Neovim's LSP client
-- (0.7 to 0.12) detaches its change listener from a buffer that changes while no client is
-- attached, yet keeps the buffer marked as tracked, so a client attached later gets a didOpen and
-- then never a didChange — its mirror goes stale and an agent edit would land on the wrong lines.
-- So the replacement client is started and attached at once, and its process waits the backoff
-- (`sh -c 'sleep …; exec hashline lsp'`) while the buffers stay attached to it; :HashlineRestart
-- attaches the new client before it stops the old one, and stops the old one only once the new
-- one is initialized (its discovery record exists), so agents never see the workspace unguarded. A buffer that did change with no client
-- attached (after giving up, after a stop the user asked for) is marked untracked (M.watch's own
-- listener sees it) and is not attached again: M.untracked says why and how to reopen it.
-- Main loop only, except M.on_exit, which may run in a libuv callback and only reads Lua tables.
local config = require('hashline.config')
local compat = require('hashline.compat')

local M = {}

M.defaults = { max_crashes = 5, window_ms = 60000, backoff_ms = 250, max_backoff_ms = 8000 }

-- root directory -> { restarts, crash_total, crashes (times, ms), gave_up, last_exit, ... }
local roots = {}
-- client id -> true: a stop the plugin asked for (:HashlineRestart), not a crash
local requested_stop = {}
-- ids of every client the plugin started (Neovim 0.7 lists only initialized ones)
M.started_ids = {}
-- bufnr -> true while our listener is on the buffer; bufnr -> reason once Neovim stopped tracking it
local watching, untracked = {}, {}
local quitting = false

local function now_ms()
  return compat.uv.hrtime() / 1e6
end

local function notify(msg, level)
  vim.notify('hashline: ' .. msg, level or vim.log.levels.INFO)
end

local function options()
  local restart = config.get().restart
  if restart == false then
    return nil
  end
  return vim.tbl_extend('force', M.defaults, type(restart) == 'table' and restart or {})
end

local function state_of(root)
  local st = roots[root]
  if not st then
    st = { root = root, restarts = 0, crash_total = 0, crashes = {} }
    roots[root] = st
  end
  return st
end

-- "exit code 1" / "signal 9"
local function describe_exit(code, signal)
  if signal and signal ~= 0 then
    return 'signal ' .. tostring(signal)
  end
  return 'exit code ' .. tostring(code)
end

-- Whether an exit is a crash rather than a stop: Neovim stops a server with the `exit`
-- notification (code 0) or SIGTERM; everything else (kill -9, a segfault, exit 1) is a crash.
function M.unexpected(code, signal)
  return (code ~= nil and code ~= 0) or (signal ~= nil and signal ~= 0 and signal ~= 15)
end

-- Our own listener on every buffer the sidecar attached (client on_attach): notes a change made
-- while no client at all is attached, the moment Neovim's listener leaves the buffer.
function M.watch(bufnr)
  if watching[bufnr] then
    return
  end
  watching[bufnr] = true
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function()
      if not untracked[bufnr] and not compat.any_client_attached(bufnr, M.started_ids) then
        untracked[bufnr] = 'it changed while no language client was attached, and Neovim stops sending '
          .. "the changes of such a buffer to any later client; :write it and :edit it (or close and reopen it) "
          .. 'to attach it again'
      end
    end,
    on_detach = function() -- unloaded: Neovim forgets the buffer too, a reload attaches afresh
      watching[bufnr], untracked[bufnr] = nil, nil
    end,
  })
end

-- Why `bufnr` cannot be attached again (see the top of this file), or nil.
function M.untracked(bufnr)
  return untracked[bufnr]
end

local function living_buffers(list)
  local out = {}
  for _, bufnr in ipairs(list) do
    if vim.api.nvim_buf_is_valid(bufnr) and vim.api.nvim_buf_is_loaded(bufnr) and not untracked[bufnr] then
      table.insert(out, bufnr)
    end
  end
  return out
end

-- The command that starts `cmd` after `delay_ms` (the backoff), as one process: sh sleeps, then
-- execs the sidecar (same pid).
local function delayed(cmd, delay_ms)
  if delay_ms <= 0 then
    return cmd
  end
  local wrapped = { 'sh', '-c', 'sleep "$0" && exec "$@"', string.format('%.3f', delay_ms / 1000) }
  vim.list_extend(wrapped, cmd)
  return wrapped
end

-- The sidecar's own command of a client's `cmd` (without the backoff wrapper).
function M.unwrapped(cmd)
  if type(cmd) == 'table' and cmd[1] == 'sh' and cmd[3] == 'sleep "$0" && exec "$@"' then
    return vim.list_slice(cmd, 5)
  end
  return cmd
end

-- A new client for `st.root` running `cmd`, attached to `buffers` at once. Returns its id and how
-- many buffers it holds, or nil and the reason.
local function start(st, cmd, buffers)
  local id, count, reason = require('hashline.attach').start_new(st.root, living_buffers(buffers), cmd)
  if id then
    M.started_ids[id] = true
    st.client_id = id
  end
  return id, count, reason
end

-- Called by the client's on_exit (maybe in a libuv callback): notes the buffers now, decides on
-- the main loop.
function M.on_exit(code, signal, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  local root = client and client.config and client.config.root_dir
  local cmd = client and client.config and client.config.cmd
  local held = {}
  for bufnr in pairs(client and client.attached_buffers or {}) do
    table.insert(held, bufnr)
  end
  local asked = requested_stop[client_id]
  requested_stop[client_id] = nil
  vim.schedule(function()
    M.handle_exit(root, cmd, held, code, signal, asked)
  end)
end

function M.handle_exit(root, cmd, held, code, signal, asked)
  if type(root) ~= 'string' then
    return
  end
  local st = state_of(root)
  st.last_exit = { code = code, signal = signal, time = os.time(), asked = asked or false }
  if asked or quitting or vim.v.exiting ~= vim.NIL or not M.unexpected(code, signal) then
    return
  end
  st.crash_total = st.crash_total + 1
  if type(cmd) == 'table' then
    st.cmd = M.unwrapped(cmd)
  end
  local opts = options()
  if not opts then
    st.gave_up = 'the sidecar exited (' .. describe_exit(code, signal) .. ') and restart = false'
    return
  end
  local t = now_ms()
  table.insert(st.crashes, t)
  while #st.crashes > 0 and t - st.crashes[1] > opts.window_ms do
    table.remove(st.crashes, 1)
  end
  if #st.crashes >= opts.max_crashes then
    st.gave_up = string.format('%d crashes within %d s (the last: %s)', #st.crashes,
      math.floor(opts.window_ms / 1000), describe_exit(code, signal))
    notify(string.format('the sidecar for %s had %s; not restarting it again. '
      .. ':HashlineRestart starts it by hand; :checkhealth hashline says more.', root, st.gave_up),
      vim.log.levels.ERROR)
    return
  end
  local buffers = living_buffers(held)
  local quiet = st.notified_at and t - st.notified_at < opts.window_ms
  if not quiet then
    st.notified_at = t
    notify(string.format('the sidecar for %s exited (%s); restarting it and re-attaching %d buffer(s)', root,
      describe_exit(code, signal), #buffers), vim.log.levels.WARN)
  end
  if #buffers == 0 then
    return -- nothing to mirror; the next file opened starts it
  end
  local delay = math.min(opts.backoff_ms * 2 ^ (#st.crashes - 1), opts.max_backoff_ms)
  local id, _, reason = start(st, delayed(st.cmd or config.get().cmd, delay), buffers)
  if id then
    st.restarts = st.restarts + 1
    st.last_restart = os.time()
    st.last_error = nil
  else
    st.last_error = reason
    notify('could not restart the sidecar for ' .. root .. ': ' .. tostring(reason), vim.log.levels.ERROR)
  end
end

-- Why attach() must not start a sidecar for `root` on its own (the supervisor gave up), or nil.
function M.refusal(root)
  local st = roots[root]
  if st and st.gave_up and options() then
    return 'the sidecar for ' .. root .. ' had ' .. st.gave_up .. '; :HashlineRestart starts it again'
  end
  return nil
end

-- Stops the old clients of a :HashlineRestart once the new client `id` is initialized (or gone,
-- or after 10 s). A sidecar publishes its discovery record while it answers `initialize`, and
-- the old one withdraws its own when it stops cleanly: stopping the old one first would leave a
-- moment in which the workspace has no record, and an agent call then would work on the disk
-- behind the open buffers (disk mode). Meanwhile both mirror the buffers.
local function stop_once_initialized(id, clients, waited_ms)
  waited_ms = waited_ms or 0
  local client = vim.lsp.get_client_by_id(id)
  if client and not client.initialized and waited_ms < 10000 then
    vim.defer_fn(function()
      stop_once_initialized(id, clients, waited_ms + 20)
    end, 20)
    return
  end
  for _, old in ipairs(clients) do
    compat.stop(old)
  end
end

-- :HashlineRestart — for every root with a hashline client (or one the supervisor gave up on):
-- a new sidecar, attached to every buffer the old one held, then the old one stopped; the crash
-- count starts over. Buffers Neovim no longer tracks (M.untracked) are named, not attached.
function M.restart()
  local attach = require('hashline.attach')
  local by_root = {}
  for root, st in pairs(roots) do
    if st.gave_up then
      by_root[root] = { clients = {}, buffers = {} }
    end
  end
  for _, client in ipairs(compat.get_clients({ name = attach.client_name })) do
    local root = client.config and client.config.root_dir
    if type(root) == 'string' then
      by_root[root] = by_root[root] or { clients = {}, buffers = {} }
      table.insert(by_root[root].clients, client)
    end
  end
  -- the buffers of a root without a client: every file buffer of that root
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if attach.eligible(bufnr) then
      local root = attach.root_for(vim.api.nvim_buf_get_name(bufnr))
      if by_root[root] then
        table.insert(by_root[root].buffers, bufnr)
      end
    end
  end
  if next(by_root) == nil then -- nothing ran yet: attach the current buffer
    local id, reason = attach.attach(vim.api.nvim_get_current_buf())
    if not id then
      notify('nothing to restart: ' .. tostring(reason), vim.log.levels.WARN)
    end
    return id ~= nil
  end
  local ok = true
  for root, entry in pairs(by_root) do
    local st = state_of(root)
    st.gave_up, st.crashes, st.notified_at = nil, {}, nil
    for _, client in ipairs(entry.clients) do
      st.cmd = type(client.config.cmd) == 'table' and M.unwrapped(client.config.cmd) or st.cmd
    end
    local id, count, reason = start(st, st.cmd or config.get().cmd, entry.buffers)
    if id then
      st.restarts = st.restarts + 1
      for _, client in ipairs(entry.clients) do
        requested_stop[client.id] = true
      end
      stop_once_initialized(id, entry.clients)
      local skipped = {}
      for _, bufnr in ipairs(entry.buffers) do
        if untracked[bufnr] then
          table.insert(skipped, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.'))
        end
      end
      notify(string.format('sidecar for %s restarted (%d buffer(s) attached)%s', root, count, #skipped > 0
        and ('; not attached, Neovim stopped tracking them (:checkhealth hashline): ' .. table.concat(skipped, ', '))
        or ''))
    else
      ok = false
      notify('could not restart the sidecar for ' .. root .. ': ' .. tostring(reason), vim.log.levels.ERROR)
    end
  end
  return ok
end

-- For :checkhealth: one entry per root the supervisor has seen.
function M.report()
  local list = {}
  for root, st in pairs(roots) do
    table.insert(list, {
      root = root,
      restarts = st.restarts,
      crashes = st.crash_total,
      gave_up = st.gave_up,
      last_exit = st.last_exit and describe_exit(st.last_exit.code, st.last_exit.signal),
      last_exit_asked = st.last_exit and st.last_exit.asked,
      last_error = st.last_error,
    })
  end
  table.sort(list, function(a, b) return a.root < b.root end)
  local lost = {}
  for bufnr in pairs(untracked) do
    if vim.api.nvim_buf_is_valid(bufnr) then
      table.insert(lost, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.'))
    end
  end
  table.sort(lost)
  return list, options(), lost
end

vim.api.nvim_create_autocmd('VimLeavePre', {
  group = vim.api.nvim_create_augroup('hashline_supervisor', { clear = true }),
  callback = function()
    quitting = true
  end,
})

return M
