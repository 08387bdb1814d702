-- The extra latency the diagnostics wait adds to an agent edit (issue 21), run by
-- tests/bench/diagnostics/run.sh. Headless Neovim with the hashline plugin (setup{}) and clangd
-- attached to ws/main.cpp as a second LSP client (as tests/editors/nvim-diagnostics does), the
-- buffer holding unsaved typing. The `hashline` CLI, a separate process started with jobstart,
-- edits the buffer as an agent would: `hashline replace main.cpp --old A --new B` toggling one
-- line between two valid forms (no diagnostic either way, so every edit waits for clangd's next
-- publish of an unchanged, empty set). Three modes, interleaved round-robin so drift in the
-- machine's load hits all alike:
--   off      --no-diagnostics (no wait, no report)
--   default  no flag (the default wait, 500 ms)
--   wait2000 --diagnostics-wait 2000
-- Each edit's wall time is vim.loop.hrtime() from just before jobstart to the job's exit (the CLI
-- process start, connect, the edit applied by Neovim and confirmed, the wait, the answer). After
-- each edit the script waits (untimed) until clangd has published for the edit's version, so
-- every edit starts from a quiet editor (an agent's edits are seconds apart) and
-- publishMedianMs says when clangd's diagnostics reached Neovim, counted from the CLI's start.
-- Each edit writes a text never seen before (`add(1, K)`, K counting up): clangd does not publish
-- again for a text it already diagnosed, so BENCH_STYLE=toggle (two forms, A→B→A, the buffer's
-- text repeats) shows what a wait costs when no new set ever comes. BENCH_MODES (e.g. off,default)
-- picks modes, BENCH_GAP_MS adds idle time before each edit.
-- Writes one JSON object to $BENCH_OUT: per mode {runsMs, medianMs, p99Ms, settled, timedOut, ...}.
local bin = assert(os.getenv('HASHLINE_BIN'))
local work = assert(os.getenv('BENCH_WORK'))
local out_path = assert(os.getenv('BENCH_OUT'))
local edits = tonumber(os.getenv('BENCH_EDITS') or '30')
local gap_ms = tonumber(os.getenv('BENCH_GAP_MS') or '0')
local style = os.getenv('BENCH_STYLE') or 'unique' -- unique | toggle
local only = os.getenv('BENCH_MODES') -- e.g. "default,wait2000": a subset, in that order
local compat = require('hashline.compat')
local hashline = require('hashline')
local ws = work .. '/ws'
local cpp = ws .. '/main.cpp'

local FORM_A = '  int total = add(1, 2);'
local FORM_B = '  int total = add(2, 1);'
local cpp_disk = table.concat({
  '#include <cstdio>',
  '',
  'int add(int a, int b) { return a + b; }',
  '',
  'int main() {',
  FORM_A,
  '  std::printf("%d\\n", total);',
  '  return 0;',
  '}',
  '',
}, '\n')

local result = { edits = edits, nvim = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch }

local function finish(err)
  if err then result.error = tostring(err) end
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(result) .. '\n')
  f:close()
  vim.cmd('qa!')
end

local function write_file(path, text)
  local f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
end

-- Runs the CLI without blocking the event loop (the sidecar calls back into this Neovim).
local function cli(args)
  local out, err, code = {}, {}, nil
  local cmd = { bin }
  vim.list_extend(cmd, args)
  local started = vim.loop.hrtime()
  local ended
  local job = vim.fn.jobstart(cmd, {
    cwd = ws,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data) out = data end,
    on_stderr = function(_, data) err = data end,
    on_exit = function(_, c) ended = vim.loop.hrtime(); code = c end,
  })
  assert(job > 0, 'cannot start ' .. bin)
  vim.fn.chanclose(job, 'stdin')
  assert(vim.wait(60000, function() return code ~= nil end, 1), 'CLI did not exit')
  return code, table.concat(out, '\n'), table.concat(err, '\n'), (ended - started) / 1e6
end

local function cli_json(args)
  local full = vim.list_extend({}, args)
  table.insert(full, '--json')
  local code, out, err, ms = cli(full)
  local ok, decoded = pcall(vim.fn.json_decode, out)
  assert(ok and type(decoded) == 'table', 'not JSON (exit ' .. tostring(code) .. '): ' .. out .. err)
  return code, decoded, out .. err, ms
end

local function quantile(xs, p)
  local s = vim.deepcopy(xs)
  table.sort(s)
  if #s == 0 then return nil end
  return s[math.max(1, math.min(#s, math.ceil(p * #s)))]
end

local ok, err = pcall(function()
  vim.fn.mkdir(ws .. '/.git', 'p')
  write_file(cpp, cpp_disk)
  write_file(ws .. '/compile_flags.txt', '-std=c++17\n')
  hashline.setup({ cmd = { bin, 'lsp', '--log-file', work .. '/hashline.log', '--log-level', os.getenv('BENCH_LOG_LEVEL') or 'warn' } })
  vim.cmd('edit ' .. cpp)
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.wait(10000, function()
    local client = hashline.client(bufnr)
    return client ~= nil and client.initialized and compat.attached(client, bufnr)
  end, 20), 'hashline not attached')
  -- Counts clangd's publishDiagnostics (wrapping the handler the plugin wrapped at attach).
  result.publishes = {}
  local original = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(e, r, ctx, cfg)
    if type(r) == 'table' then
      table.insert(result.publishes, { t = vim.loop.hrtime() / 1e6, version = r.version, n = #(r.diagnostics or {}),
        buf = compat.buf_version(bufnr) })
    end
    return original(e, r, ctx, cfg)
  end
  local clangd_id = compat.start_client({
    name = 'clangd',
    cmd = { 'clangd', '--log=error', '--pch-storage=memory' },
    root_dir = ws,
    workspace_folders = { { uri = vim.uri_from_fname(ws), name = 'ws' } },
    flags = { debounce_text_changes = 20 },
  })
  assert(clangd_id, 'clangd did not start')
  vim.lsp.buf_attach_client(bufnr, clangd_id)
  local answer
  assert(vim.wait(60000, function()
    local _, r = cli_json({ 'diagnostics', 'main.cpp' })
    answer = r
    return r.available == true and r.files and #r.files == 1
  end, 50), 'no diagnostics set for main.cpp: ' .. vim.inspect(answer))
  assert(#answer.files[1].diagnostics == 0, 'expected a clean file: ' .. vim.inspect(answer.files[1]))
  -- unsaved typing above the code (after clangd's didOpen: see diagnostics_test.lua)
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { '// typed by the user, not saved' })
  local code, _, raw = cli_json({ 'read', 'main.cpp', '--session', 'bench' })
  assert(code == 0, 'read: ' .. raw)

  local modes = {
    { name = 'off', flags = { '--no-diagnostics' } },
    { name = 'default', flags = {} },
    { name = 'wait2000', flags = { '--diagnostics-wait', '2000' } },
  }
  if only and only ~= '' then
    local picked = {}
    for name in only:gmatch('[^,]+') do
      for _, mode in ipairs(modes) do if mode.name == name then table.insert(picked, mode) end end
    end
    modes = picked
  end
  local current, counter = FORM_A, 2
  local function edit(mode)
    local new
    if style == 'toggle' then
      new = current == FORM_A and FORM_B or FORM_A
    else -- a text never seen before: clangd skips publishing for a text it already diagnosed
      counter = counter + 1
      new = '  int total = add(1, ' .. counter .. ');'
    end
    local args = { 'replace', 'main.cpp', '--old', current, '--new', new, '--session', 'bench', '--agent', 'bench' }
    vim.list_extend(args, mode.flags)
    local started = vim.loop.hrtime() / 1e6
    local c, r, rawr, ms = cli_json(args)
    assert(c == 0 and r.status == 'applied', mode.name .. ' replace: ' .. rawr)
    current = new
    return r, ms, started
  end
  -- warm-up: one edit per mode, untimed (clangd's first reparse after typing, page cache)
  for _, mode in ipairs(modes) do edit(mode) end
  result.modes = {}
  for _, mode in ipairs(modes) do
    result.modes[mode.name] = { flags = table.concat(mode.flags, ' '), runsMs = {}, settled = 0, timedOut = 0,
      unavailable = 0, reported = 0, introduced = 0 }
  end
  for _ = 1, edits do
    for _, mode in ipairs(modes) do
      if gap_ms > 0 then vim.wait(gap_ms) end
      local r, ms, started = edit(mode)
      local m = result.modes[mode.name]
      table.insert(m.runsMs, ms)
      -- when clangd published for the edit's version (its text), from the CLI's start
      local version = compat.buf_version(bufnr)
      -- (and the next edit starts from a quiet editor: an agent's edits are seconds apart)
      vim.wait(style == 'toggle' and 0 or 3000, function()
        for i = #result.publishes, 1, -1 do
          if result.publishes[i].version == version then return true end
        end
        return false
      end, 2)
      for i = #result.publishes, 1, -1 do
        local p = result.publishes[i]
        if p.version == version then
          m.publishMs = m.publishMs or {}
          table.insert(m.publishMs, p.t - started)
          break
        end
      end
      local d = r.diagnostics
      if d ~= nil and d ~= vim.NIL then
        m.reported = m.reported + 1
        if d.available == false then m.unavailable = m.unavailable + 1
        elseif d.settled == true then m.settled = m.settled + 1
        else m.timedOut = m.timedOut + 1 end
        if type(d.introduced) == 'table' then m.introduced = m.introduced + #d.introduced end
        m.sample = m.sample or d
      end
    end
  end
  for _, m in pairs(result.modes) do
    m.medianMs = quantile(m.runsMs, 0.5)
    m.p99Ms = quantile(m.runsMs, 0.99)
    m.minMs = quantile(m.runsMs, 0)
    m.maxMs = quantile(m.runsMs, 1)
    if m.publishMs then m.publishMedianMs = quantile(m.publishMs, 0.5) end
  end
  -- the buffer ends in the form the model says, the disk untouched, no diagnostic introduced
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  result.bufferEqualsModel = lines[7] == current
  local f = assert(io.open(cpp, 'rb'))
  result.diskUntouched = f:read('*a') == cpp_disk
  f:close()
  result.verified = result.bufferEqualsModel and result.diskUntouched
  for name, m in pairs(result.modes) do
    if name == 'off' then
      result.verified = result.verified and m.reported == 0
    else
      result.verified = result.verified and m.reported == edits and m.introduced == 0
    end
  end
  result.gapMs = gap_ms
  result.style = style
  compat.stop(clangd_id, true)
end)
finish(not ok and err or nil)
