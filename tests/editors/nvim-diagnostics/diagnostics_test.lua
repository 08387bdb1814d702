-- Headless Neovim (each tested version) with the hashline plugin (setup{}) and clangd attached
-- to ws/main.cpp as a second LSP client, the buffer holding unsaved typing above the code. The
-- `hashline` CLI, a separate process, edits the buffer as an agent would; the plugin forwards
-- what clangd reports (vim.diagnostic → hashline/diagnostics) and each edit result carries the
-- diagnostics that edit introduced or removed. Writes "PASS name" / "FAIL name: why" lines to
-- $RESULTS, then quits.
local bin = assert(os.getenv('HASHLINE_BIN'))
local work = assert(os.getenv('WORK'))
local results = assert(io.open(assert(os.getenv('RESULTS')), 'w'))
local compat = require('hashline.compat')
local hashline = require('hashline')
local ws = work .. '/ws'
local cpp = ws .. '/main.cpp'
local txt = ws .. '/notes.txt'

local cpp_disk = table.concat({
  'int add(int a, int b) { return a + b; }',
  '',
  'int main() {',
  '  int total = add(1, 2);',
  '  return total;',
  '}',
  '',
}, '\n')
local TYPED = '// typed by the user, not saved'
local GOOD_CALL = '  int total = add(1, 2);'
local BAD_CALL = '  int total = add(1, "two");'

local function record(ok, name, why)
  results:write((ok and 'PASS ' or 'FAIL ') .. name .. (ok and '' or (': ' .. tostring(why))) .. '\n')
  results:flush()
end

local function step(name, fn)
  local ok, why = pcall(fn)
  record(ok, name, why)
  return ok
end

local function wait(ms, cond)
  return vim.wait(ms, cond, 20)
end

local function write_file(path, text)
  local f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
end

local function read_file(path)
  local f = assert(io.open(path, 'rb'))
  local text = f:read('*a')
  f:close()
  return text
end

-- Runs the CLI without blocking the event loop (the sidecar calls back into this Neovim).
local function cli(args)
  local out, err, code = {}, {}, nil
  local cmd = { bin }
  vim.list_extend(cmd, args)
  local job = vim.fn.jobstart(cmd, {
    cwd = ws,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data) out = data end,
    on_stderr = function(_, data) err = data end,
    on_exit = function(_, c) code = c end,
  })
  assert(job > 0, 'cannot start ' .. bin)
  vim.fn.chanclose(job, 'stdin')
  assert(wait(60000, function() return code ~= nil end), 'CLI did not exit')
  return code, table.concat(out, '\n'), table.concat(err, '\n')
end

local function cli_json(args)
  local full = vim.list_extend({}, args)
  table.insert(full, '--json')
  local code, out, err = cli(full)
  local ok, decoded = pcall(vim.fn.json_decode, out)
  assert(ok and type(decoded) == 'table', 'not JSON (exit ' .. tostring(code) .. '): ' .. out .. err)
  return code, decoded, out .. err
end

local function line_of(bufnr, text)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line == text then return i end
  end
end

vim.fn.mkdir(ws .. '/.git', 'p')
write_file(cpp, cpp_disk)
write_file(ws .. '/compile_flags.txt', '-std=c++17\n')
write_file(txt, 'first note\nsecond note\n')

local bufnr, clangd_id
local ok = step('attach-hashline-and-clangd', function()
  hashline.setup({ cmd = { bin, 'lsp', '--log-file', work .. '/hashline.log', '--log-level', 'debug' } })
  vim.cmd('edit ' .. cpp)
  bufnr = vim.api.nvim_get_current_buf()
  assert(wait(10000, function()
    local client = hashline.client(bufnr)
    return client ~= nil and client.initialized and compat.attached(client, bufnr)
  end), 'hashline not attached')
  clangd_id = compat.start_client({
    name = 'clangd',
    cmd = { 'clangd', '--log=error', '--pch-storage=memory' },
    root_dir = ws,
    workspace_folders = { { uri = vim.uri_from_fname(ws), name = 'ws' } },
    flags = { debounce_text_changes = 20 },
  })
  assert(clangd_id, 'clangd did not start')
  vim.lsp.buf_attach_client(bufnr, clangd_id)
end)

-- clangd has parsed the buffer once (its first publish, an empty set) and the plugin forwarded it.
ok = ok and step('plugin-forwards-what-clangd-reports', function()
  local answer
  assert(wait(30000, function()
    local _, result = cli_json({ 'diagnostics', 'main.cpp' })
    answer = result
    return result.available == true and result.files and #result.files == 1
  end), 'no diagnostics set for main.cpp: ' .. vim.inspect(answer))
  assert(#answer.files[1].diagnostics == 0, 'expected a clean file: ' .. vim.inspect(answer.files[1]))
  -- The user types above the code and does not save. (Only now: on 0.7 a client's didOpen resets
  -- the buffer version every client shares, so typing before clangd opened the buffer would leave
  -- hashline's mirror ahead of it until the next change.)
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { TYPED })
  assert(vim.bo[bufnr].modified, 'buffer should be modified')
end)

local broken_line
ok = ok and step('edit-that-breaks-a-call-gets-the-error-anchored-on-its-line', function()
  local read_code, _, read_raw = cli_json({ 'read', 'main.cpp', '--session', 'agent' })
  assert(read_code == 0, read_raw)
  local code, result, raw = cli_json({ 'replace', 'main.cpp', '--old', GOOD_CALL, '--new', BAD_CALL,
    '--session', 'agent', '--agent', 'bot', '--diagnostics-wait', '15000' })
  assert(code == 0 and result.status == 'applied', 'replace: ' .. raw)
  broken_line = line_of(bufnr, BAD_CALL)
  assert(broken_line == 5, 'the call is on line ' .. tostring(broken_line) .. ' of the buffer')
  assert(vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] == TYPED, 'typing lost')
  local d = assert(result.diagnostics, 'no diagnostics in the result: ' .. raw)
  assert(d.settled == true, 'not settled: ' .. vim.inspect(d))
  assert(#d.introduced >= 1, 'nothing introduced: ' .. vim.inspect(d))
  local first = d.introduced[1]
  assert(first.severity == 'error' and first.source == 'clang', vim.inspect(first))
  assert(first.line == broken_line, 'error on line ' .. tostring(first.line) .. ', call on ' .. broken_line)
  assert(first.anchor and first.anchor:match('^5:'), 'anchor ' .. tostring(first.anchor))
  assert(first.row:find(first.anchor .. ' error clang ', 1, true) == 1, 'row ' .. first.row)
  assert(#d.removed == 0, 'removed: ' .. vim.inspect(d.removed))
  assert(read_file(cpp) == cpp_disk, 'the disk changed')
  -- the anchor is the read's: an edit can follow it directly (it was recorded as observed)
  local _, read = cli_json({ 'read', 'main.cpp', '--session', 'agent', '--from', '5', '--to', '5' })
  assert(read.lines[1].anchor == first.anchor, 'read anchor ' .. vim.inspect(read.lines[1]))
end)

ok = ok and step('diagnostics-lists-the-error-and-filters-by-severity', function()
  local code, out, err = cli({ 'diagnostics', 'main.cpp' })
  assert(code == 0, out .. err)
  assert(out:find('^# main.cpp') and out:find('\n5:%w+:%w+ error clang '), out)
  local _, warnings_only = cli_json({ 'diagnostics', '--severity', 'error' })
  assert(#warnings_only.files == 1 and #warnings_only.files[1].diagnostics >= 1, vim.inspect(warnings_only))
end)

ok = ok and step('edit-that-fixes-it-reports-it-removed', function()
  local code, result, raw = cli_json({ 'replace', 'main.cpp', '--old', BAD_CALL, '--new', GOOD_CALL,
    '--session', 'agent', '--agent', 'bot', '--diagnostics-wait', '15000' })
  assert(code == 0 and result.status == 'applied', 'replace: ' .. raw)
  local d = assert(result.diagnostics, raw)
  assert(d.settled == true, vim.inspect(d))
  assert(#d.introduced == 0, 'introduced: ' .. vim.inspect(d.introduced))
  assert(#d.removed >= 1 and d.removed[1].line == broken_line and d.removed[1].severity == 'error',
    'removed: ' .. vim.inspect(d.removed))
  assert((d.counts.error or 0) == 0, vim.inspect(d.counts))
end)

ok = ok and step('text-output-shows-introduced-rows', function()
  local code, out, err = cli({ 'replace', 'main.cpp', '--old', GOOD_CALL, '--new', BAD_CALL,
    '--session', 'agent', '--diagnostics-wait', '15000' })
  assert(code == 0, out .. err)
  assert(out:find('diagnostics (settled', 1, true) and out:find('\n  %+ 5:%w+:%w+ error clang '), out)
  code, out, err = cli({ 'replace', 'main.cpp', '--old', BAD_CALL, '--new', GOOD_CALL, '--session', 'agent',
    '--no-diagnostics' })
  assert(code == 0 and not out:find('diagnostics', 1, true), out .. err)
end)

ok = ok and step('a-file-no-server-reports-on-answers-at-once', function()
  vim.cmd('edit ' .. txt)
  local txt_buf = vim.api.nvim_get_current_buf()
  assert(wait(10000, function()
    local client = hashline.client(txt_buf)
    return client ~= nil and compat.attached(client, txt_buf)
  end), 'hashline not attached to notes.txt')
  assert(cli_json({ 'read', 'notes.txt', '--session', 'agent' }) == 0, 'read notes.txt')
  local started = vim.fn.reltime()
  local code, result, raw = cli_json({ 'replace', 'notes.txt', '--old', 'second note', '--new', 'second note!',
    '--session', 'agent', '--diagnostics-wait', '20000' })
  local seconds = vim.fn.reltimefloat(vim.fn.reltime(started))
  assert(code == 0 and result.status == 'applied', raw)
  assert(result.diagnostics and result.diagnostics.available == false, vim.inspect(result.diagnostics))
  assert(seconds < 15, 'waited ' .. seconds .. ' s for a file no server reports on')
end)

ok = ok and step('bad-input-gets-error-codes', function()
  local code, out, err = cli({ 'diagnostics', '/etc/passwd' })
  assert(code == 1 and (out .. err):find('OUTSIDE_WORKSPACE', 1, true), out .. err)
  code, out, err = cli({ 'diagnostics', '--severity', 'fatal' })
  assert(code == 2 and (out .. err):find('severity', 1, true), out .. err)
  code, out, err = cli({ 'replace', 'main.cpp', '--old', GOOD_CALL, '--new', BAD_CALL, '--diagnostics-wait', 'soon' })
  assert(code == 2 and (out .. err):find('--diagnostics-wait', 1, true), out .. err)
end)

if clangd_id then compat.stop(clangd_id, true) end
results:close()
vim.cmd('qa!')
