-- Headless Neovim (each tested version) with `hashline lsp` attached through a plain LSP client
-- (no plugin; started, stopped and called through the plugin's version shims, compat.lua). The
-- test plays the agent with hashline/<method> LSP requests (the edits come back as
-- workspace/applyEdit, which Neovim applies to its buffers) and the user with
-- nvim_buf_set_lines. Writes "PASS name" / "FAIL name: why" lines to $RESULTS, then quits.
local bin = assert(os.getenv('HASHLINE_BIN'))
local work = assert(os.getenv('WORK'))
local results = assert(io.open(assert(os.getenv('RESULTS')), 'w'))
local ws = work .. '/ws'
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local compat = dofile(here .. '/../../../editors/nvim/lua/hashline/compat.lua')

local function record(ok, name, why)
  results:write((ok and 'PASS ' or 'FAIL ') .. name .. (ok and '' or (': ' .. tostring(why))) .. '\n')
  results:flush()
end
local function wait(ms, cond) return vim.wait(ms, cond, 20) end
local function step(name, fn)
  local ok, why = pcall(fn)
  record(ok, name, why)
  return ok
end

local function numbered(n, prefix)
  local lines = {}
  for i = 1, n do lines[i] = (prefix or 'line ') .. i end
  return lines
end
local function write_file(name, lines)
  local f = assert(io.open(ws .. '/' .. name, 'wb'))
  f:write(table.concat(lines, '\n') .. '\n')
  f:close()
end
local function read_file(name)
  local f = assert(io.open(ws .. '/' .. name, 'rb'))
  local text = f:read('*a')
  f:close()
  return text
end

vim.fn.mkdir(ws, 'p')
write_file('a.txt', numbered(50))
write_file('b.txt', numbered(20))
write_file('c.txt', numbered(60))

local client_id
local bufs = {}

-- One hashline/<method> request; waits (running the event loop, so applyEdit is served).
local function request(method, params)
  local done, result, err = false, nil, nil
  local client = vim.lsp.get_client_by_id(client_id)
  compat.request(client, 'hashline/' .. method, params, function(e, r)
    err, result, done = e, r, true
  end, bufs['a.txt'])
  assert(wait(30000, function() return done end), method .. ' timed out')
  assert(not err, method .. ': ' .. vim.inspect(err))
  return result
end

local function lines_of(name) return vim.api.nvim_buf_get_lines(bufs[name], 0, -1, false) end
local function expect_lines(name, expected)
  local got = lines_of(name)
  assert(vim.deep_equal(got, expected), name .. ' buffer: ' .. vim.inspect(got))
end
-- The agent reads, then replaces text (each {old, new} pair one hunk).
local function agent_replace(name, edits)
  local read = request('read', { path = name, session = 'agent' })
  assert(read.status == 'ok', vim.inspect(read))
  local result = request('replace', { path = name, session = 'agent', agent = 'test', edits = edits })
  assert(result.status == 'applied', vim.inspect(result))
  local log = request('log', {})
  return log.ops[#log.ops].op
end
local function user_set(name, line1, text) -- replace 1-based line
  vim.api.nvim_buf_set_lines(bufs[name], line1 - 1, line1, false, { text })
end
local function user_insert(name, before1, text)
  vim.api.nvim_buf_set_lines(bufs[name], before1 - 1, before1 - 1, false, { text })
end

local ok = step('attach', function()
  client_id = compat.start_client({
    name = 'hashline',
    cmd = { bin, 'lsp', '--log-file', work .. '/hashline.log', '--log-level', 'debug' },
    root_dir = ws,
    flags = { debounce_text_changes = 0 },
    workspace_folders = { { uri = vim.uri_from_fname(ws), name = 'ws' } },
  })
  assert(client_id, 'the client did not start')
  for _, name in ipairs({ 'a.txt', 'c.txt' }) do
    vim.cmd('edit ' .. ws .. '/' .. name)
    bufs[name] = vim.api.nvim_get_current_buf()
    vim.lsp.buf_attach_client(bufs[name], client_id)
  end
  assert(wait(10000, function()
    local c = vim.lsp.get_client_by_id(client_id)
    return c and c.initialized
  end), 'not initialized')
  assert(wait(10000, function()
    local status = request('status', {})
    return #status.documents == 2
  end), 'documents not open in the sidecar')
end)

local a = numbered(50)
local op1
ok = ok and step('undo-restores-agent-lines-keeps-user-line', function()
  op1 = agent_replace('a.txt', { { old = 'line 10\nline 11\nline 12\n', new = 'A10\nA11\nA12\n' } })
  assert(lines_of('a.txt')[11] == 'A11', 'agent edit not in the buffer')
  user_set('a.txt', 40, 'user 40')
  local result = request('undo', { op = op1 })
  assert(result.status == 'applied', vim.inspect(result))
  a[40] = 'user 40'
  expect_lines('a.txt', a)
end)

local op2
ok = ok and step('undo-conflict-when-user-touched-the-lines', function()
  op2 = agent_replace('a.txt', { { old = 'line 10\nline 11\nline 12\n', new = 'B10\nB11\nB12\n' } })
  user_set('a.txt', 11, 'B11 and the user')
  local before = lines_of('a.txt')
  local result = request('undo', { op = op2 })
  assert(result.status == 'refused' and result.error.code == 'CONFLICT', vim.inspect(result))
  assert(result.error.message:find('lines 10%-12'), result.error.message)
  expect_lines('a.txt', before)
  a = before
end)

local turn
ok = ok and step('turn-of-three-ops-across-buffer-and-disk', function()
  turn = request('turn', { action = 'begin', session = 'agent' }).turn
  agent_replace('a.txt', { { old = 'line 20\n', new = 'A20\n' } })
  agent_replace('b.txt', { { old = 'line 5\n', new = 'B5\n' } })
  agent_replace('a.txt', { { old = 'line 30\n', new = 'A30\n' } })
  assert(lines_of('a.txt')[20] == 'A20' and lines_of('a.txt')[30] == 'A30', 'buffer edits')
  assert(read_file('b.txt'):find('\nB5\n'), 'b.txt on disk not edited')
  assert(read_file('a.txt') == table.concat(numbered(50), '\n') .. '\n', 'a.txt on disk changed')
end)

ok = ok and step('rewind-refused-whole-on-conflict', function()
  local b_text = read_file('b.txt')
  write_file('b.txt', vim.split(b_text:gsub('B5', 'B5 by user'):gsub('\n$', ''), '\n'))
  local before = lines_of('a.txt')
  local result = request('rewind', { turn = turn, session = 'agent' })
  assert(result.status == 'refused' and result.error.code == 'CONFLICT', vim.inspect(result))
  expect_lines('a.txt', before)
  assert(read_file('b.txt'):find('B5 by user'), 'b.txt was written')
  local f = assert(io.open(ws .. '/b.txt', 'wb'))
  f:write(b_text)
  f:close()
end)

ok = ok and step('rewind-turn-across-buffer-and-disk', function()
  local result = request('rewind', { turn = turn, session = 'agent' })
  assert(result.status == 'applied', vim.inspect(result))
  assert(#result.reverted == 3, vim.inspect(result.reverted))
  a[20] = 'line 20'
  a[30] = 'line 30'
  expect_lines('a.txt', a)
  assert(read_file('b.txt') == table.concat(numbered(20), '\n') .. '\n', 'b.txt: ' .. read_file('b.txt'))
end)

local c = numbered(60)
local op3
ok = ok and step('three-hunk-op', function()
  op3 = agent_replace('c.txt', {
    { old = 'line 10\n', new = 'H1\n' },
    { old = 'line 30\n', new = 'H2\n' },
    { old = 'line 50\n', new = 'H3\n' },
  })
  local pending = request('pending', { path = 'c.txt' })
  assert(pending.count == 3, vim.inspect(pending))
  -- The user types above hunk 1 and right next to hunk 2.
  user_insert('c.txt', 2, 'typed at the top')
  user_set('c.txt', 32, 'typed next to H2') -- old line 31, moved down by the insertion
  -- didChange may trail the typing a moment: ask until the sidecar has seen it.
  local first
  wait(10000, function()
    first = request('pending', { path = 'c.txt' }).files[1].hunks[1]
    return first.line == 11
  end)
  assert(first.id == op3 .. '#1' and first.line == 11, vim.inspect(first))
end)

ok = ok and step('reject-hunks-1-and-3-keeps-hunk-2-and-typing', function()
  for _, k in ipairs({ 1, 3 }) do
    local result = request('reject', { hunk = op3 .. '#' .. k })
    assert(result.status == 'applied', vim.inspect(result))
  end
  c[30] = 'H2'
  c[31] = 'typed next to H2'
  table.insert(c, 2, 'typed at the top')
  expect_lines('c.txt', c)
end)

ok = ok and step('reject-conflict-when-user-changed-the-hunk', function()
  user_set('c.txt', 31, 'H2 edited by the user')
  local before = lines_of('c.txt')
  local result = request('reject', { hunk = op3 .. '#2' })
  assert(result.status == 'refused' and result.error.code == 'CONFLICT', vim.inspect(result))
  expect_lines('c.txt', before)
end)

if client_id then
  compat.stop(client_id)
  wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end)
end
results:close()
vim.cmd('qall!')
