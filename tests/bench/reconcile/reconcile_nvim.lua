-- The reconciliation bench's editor side (run by tests/bench/reconcile/run.sh): headless Neovim
-- 0.7.2 with the hashline plugin (editors/nvim) set up as a user would, `hashline lsp` attached.
-- BENCH_MODE=latency: one BENCH_LINES-line file open with unsaved typing at the top; BENCH_WRITES
--   times a writer in this process changes a line near the bottom on disk (write a temp file in
--   the same directory, rename it over the file) and times, from the rename (vim.loop.hrtime,
--   CLOCK_MONOTONIC): `buffer` = an on_lines callback sees the merged line, `confirmed` = the
--   sidecar's `hashline/reconciled` notification (sent after the mirror confirmed the edit);
--   also `request` = the sidecar's workspace/applyEdit reaching the plugin's handler.
--   Also the sidecar's CPU time per write (all threads, /proc/PID/task/*/schedstat).
--   BENCH_WRITER=inplace: the writer truncates and rewrites the file instead (clock from close).
--   Every write is checked: the buffer must be the typing + the disk text. BENCH_GAP_MS: the pause
--   after each confirmed write before the next (the sidecar waits a little longer for a write that
--   comes within its typing window of the buffer's last change).
-- BENCH_MODE=idle: BENCH_FILES files (10 per directory) open, then the sidecar's CPU time
--   (utime + stime of /proc/PID/stat) over BENCH_IDLE_S seconds.
-- BENCH_RECONCILE (merge | off) goes to initializationOptions.reconcile. Appends one JSON line
-- to BENCH_OUT, then quits; errors go to the JSON line as `error`.
local bin = assert(os.getenv('HASHLINE_BIN'))
local work = assert(os.getenv('BENCH_WORK'))
local out_path = assert(os.getenv('BENCH_OUT'))
local mode = os.getenv('BENCH_MODE') or 'latency'
local reconcile = os.getenv('BENCH_RECONCILE') or 'merge'
local uv = vim.loop

vim.o.swapfile = false
vim.o.hidden = true
vim.o.shortmess = vim.o.shortmess .. 'F'

-- `text`: a string, or a list of strings written as one (a writev: no multi-megabyte string is
-- built per write, whose garbage would make Neovim pause for collection inside a measurement).
local function write_file(path, text)
  local fd = assert(uv.fs_open(path, 'w', 420))
  assert(uv.fs_write(fd, text, 0))
  assert(uv.fs_close(fd))
end

local function emit(result)
  local handle = assert(io.open(out_path, 'a'))
  handle:write(vim.fn.json_encode(result) .. '\n')
  handle:close()
end

local hashline = require('hashline')
-- BENCH_SIDECAR_LOG=FILE: a debug log of the sidecar (timestamps per step), to look into latency.
local log = os.getenv('BENCH_SIDECAR_LOG')
local cmd = log and { bin, 'lsp', '--log-file', log, '--log-level', 'debug' } or { bin, 'lsp', '--log-level', 'warn' }
hashline.setup({ cmd = cmd, init_options = { reconcile = reconcile } })

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.wait(20000, function()
    local client = hashline.client(bufnr)
    return client ~= nil and client.initialized and client.attached_buffers[bufnr] == true
  end, 5), 'the hashline client never attached to ' .. path)
  return bufnr
end

-- The sidecar's pid: the hashline process whose parent is this Neovim.
local function sidecar_pid(bufnr)
  local client = hashline.client(bufnr)
  return client and client.rpc and client.rpc.pid
end

local function cpu_ticks(pid)
  local handle = io.open('/proc/' .. pid .. '/stat', 'r')
  if not handle then
    return nil
  end
  local stat = handle:read('*a')
  handle:close()
  -- Fields after the parenthesised command: state is field 3; utime 14, stime 15.
  local rest = stat:match('%) (.*)$')
  local fields = vim.split(rest, ' ', { plain = true })
  return tonumber(fields[12]) + tonumber(fields[13])
end

-- CPU nanoseconds of all the process's live threads (/proc/PID/task/*/schedstat, field 1).
local function cpu_ns(pid)
  local total = 0
  for _, stat in ipairs(vim.fn.glob('/proc/' .. pid .. '/task/*/schedstat', false, true)) do
    local handle = io.open(stat, 'r')
    if handle then
      total = total + (tonumber((handle:read('*l') or ''):match('^(%d+)')) or 0)
      handle:close()
    end
  end
  return total
end

local function latency()
  local n = tonumber(os.getenv('BENCH_LINES') or '1000')
  local writes = tonumber(os.getenv('BENCH_WRITES') or '50')
  local warmup = tonumber(os.getenv('BENCH_WARMUP') or '3')
  local gap_ms = tonumber(os.getenv('BENCH_GAP_MS') or '30') -- pause after each confirmed write
  local writer = os.getenv('BENCH_WRITER') or 'rename'
  local ws = work .. '/latency-' .. n
  vim.fn.mkdir(ws .. '/.git', 'p')
  local path = ws .. '/file.lua'
  local disk = {}
  for i = 1, n do
    disk[i] = string.format('local v%06d = compute(%d, "filler text for a realistic line")', i, i)
  end
  write_file(path, table.concat(disk, '\n') .. '\n')
  local bufnr = open(path)
  local typed = '-- typed by the user, unsaved'
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('ggO' .. typed .. '<Esc>', true, false, true), 'xt', false)
  assert(vim.bo[bufnr].modified, 'the buffer is not modified after typing')
  vim.wait(1000) -- past the sidecar's typing window: these writes are not the editor's saves

  local target = n - 2 -- the disk line the writer changes; buffer line target + 1
  -- The file around the changed line, built once.
  local head = table.concat(disk, '\n', 1, target - 1) .. '\n'
  local tail = '\n' .. table.concat(disk, '\n', target + 1, n) .. '\n'
  local pending -- {text, t0, buffer, confirmed, version}
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function(_, _, _, first, _, last_new)
      if pending and not pending.buffer and first <= target and target < last_new then
        if vim.api.nvim_buf_get_lines(bufnr, target, target + 1, true)[1] == pending.text then
          pending.buffer = uv.hrtime()
        end
      end
    end,
  })
  local client = hashline.client(bufnr)
  local method = 'hashline/reconciled'
  local previous = client.handlers[method]
  local notes = {}
  client.handlers[method] = function(err, params, ctx, config)
    if pending and not pending.confirmed and params and params.version ~= nil and params.version ~= vim.NIL then
      pending.confirmed = uv.hrtime()
      pending.kind, pending.version = params.kind, params.version
    end
    table.insert(notes, params and params.kind or '?')
    local handler = previous or vim.lsp.handlers[method]
    if handler then
      return handler(err, params, ctx, config)
    end
  end

  -- When the sidecar's applyEdit reaches Neovim: splits the latency into the sidecar's part
  -- (rename → request) and the editor's (request → on_lines).
  local attach = require('hashline.attach')
  local apply_edit_handler = attach.apply_edit_handler
  attach.apply_edit_handler = function(...)
    if pending and not pending.request then
      pending.request = uv.hrtime()
    end
    return apply_edit_handler(...)
  end

  local buffer_ms, confirmed_ms, write_ms, failures = {}, {}, {}, {}
  local request_ms, wall = {}, {}
  local pid = sidecar_pid(bufnr)
  local cpu0
  for k = 1, warmup + writes do
    if k == warmup + 1 then
      cpu0 = cpu_ns(pid)
    end
    disk[target] = string.format('local v%06d = written(%d) -- by the bench writer', target, k)
    pending = { text = disk[target] }
    local w0, t0 = uv.hrtime(), nil
    local body = { head, disk[target], tail }
    if writer == 'inplace' then
      -- open(O_TRUNC), one write, close (as Gemini CLI's write_file): the clock starts at close.
      write_file(path, body)
      t0 = uv.hrtime()
    else
      local tmp = ws .. '/.file.lua.tmp' .. k
      write_file(tmp, body)
      t0 = uv.hrtime()
      assert(uv.fs_rename(tmp, path))
    end
    pending.t0 = uv.hrtime()
    local done = vim.wait(5000, function() return pending.buffer ~= nil and pending.confirmed ~= nil end, 1)
    -- The typing, the line count and the written line (the whole buffer is compared at the end).
    local function line(index) return vim.api.nvim_buf_get_lines(bufnr, index, index + 1, true)[1] end
    local ok = done and line(0) == typed and vim.api.nvim_buf_line_count(bufnr) == n + 1
      and line(target) == disk[target]
    if not ok then
      table.insert(failures, string.format('write %d: %s', k, done and 'buffer is not typing + disk'
        or ('timed out (buffer ' .. tostring(pending.buffer ~= nil) .. ', notification ' .. tostring(pending.confirmed ~= nil) .. ')')))
    elseif k > warmup then
      table.insert(buffer_ms, (pending.buffer - pending.t0) / 1e6)
      table.insert(confirmed_ms, (pending.confirmed - pending.t0) / 1e6)
      table.insert(write_ms, (t0 - w0) / 1e6)
      table.insert(request_ms, pending.request and (pending.request - pending.t0) / 1e6 or nil)
      local sec, usec = uv.gettimeofday()
      table.insert(wall, string.format('%s.%03d', os.date('!%H:%M:%S', sec), math.floor(usec / 1000)))
    end
    pending = nil
    vim.wait(gap_ms)
    if #failures >= 5 then
      break
    end
  end
  local cpu_per_write_ms = cpu0 and #confirmed_ms > 0 and (cpu_ns(pid) - cpu0) / 1e6 / #confirmed_ms or nil
  -- The whole buffer once more: the typing, then exactly the disk's text; and the mirror agrees.
  local want = { typed }
  vim.list_extend(want, disk)
  local whole = vim.deep_equal(want, vim.api.nvim_buf_get_lines(bufnr, 0, -1, true))
  local snap = hashline.snapshot(bufnr)
  local text = table.concat(want, '\n') .. '\n'
  local mirrored = snap ~= nil and snap.sha256 == vim.fn.sha256(text)
  emit({
    mode = 'latency', lines = n, gapMs = gap_ms, writer = writer, writes = #confirmed_ms, bytes = #text, bufferMs = buffer_ms,
    confirmedMs = confirmed_ms, requestMs = request_ms, wallAtCheck = wall, writeMs = write_ms, failures = failures,
    verified = whole and mirrored and #failures == 0, modified = vim.bo[bufnr].modified,
    notifications = #notes, sidecarCpuMsPerWrite = cpu_per_write_ms,
  })
end

local function idle()
  local files = tonumber(os.getenv('BENCH_FILES') or '200')
  local seconds = tonumber(os.getenv('BENCH_IDLE_S') or '30')
  local ws = work .. '/idle-' .. reconcile
  vim.fn.mkdir(ws .. '/.git', 'p')
  local first
  local body = {}
  for i = 1, 200 do
    body[i] = string.format('line %d of a file open in the editor', i)
  end
  local text = table.concat(body, '\n') .. '\n'
  for i = 1, files do
    local dir = string.format('%s/dir%02d', ws, math.floor((i - 1) / 10))
    vim.fn.mkdir(dir, 'p')
    local path = string.format('%s/file%03d.txt', dir, i)
    write_file(path, text)
    local bufnr = open(path)
    first = first or bufnr
  end
  local pid = assert(sidecar_pid(first), 'no sidecar pid')
  local attached = #vim.lsp.get_buffers_by_client_id(hashline.client(first).id)
  vim.wait(5000) -- let the opening settle
  local hz = tonumber(vim.fn.system({ 'getconf', 'CLK_TCK' })) or 100
  local c0, n0, t0 = cpu_ticks(pid), cpu_ns(pid), uv.hrtime()
  vim.wait(seconds * 1000)
  local c1, n1, t1 = cpu_ticks(pid), cpu_ns(pid), uv.hrtime()
  local cpu_s = (c1 - c0) / hz
  local sched_s = (n1 - n0) / 1e9
  local wall_s = (t1 - t0) / 1e9
  emit({
    mode = 'idle', reconcile = reconcile, files = files, attached = attached, dirs = math.ceil(files / 10),
    seconds = wall_s, cpuSeconds = cpu_s, cpuPercent = 100 * cpu_s / wall_s, clockTicks = hz,
    schedCpuSeconds = sched_s, schedCpuPercent = 100 * sched_s / wall_s, pid = pid,
    verified = attached == files,
  })
end

local ok, err = xpcall(mode == 'idle' and idle or latency, debug.traceback)
if not ok then
  emit({ mode = mode, error = tostring(err), lines = tonumber(os.getenv('BENCH_LINES') or '0'), reconcile = reconcile })
end
for _, client in ipairs(vim.lsp.get_active_clients()) do
  client.stop()
end
vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end)
vim.cmd('qall!')
