-- Headless Neovim (each tested version) with `hashline lsp` attached through a plain LSP client
-- (no plugin; started, stopped and called through the plugin's version shims, compat.lua). The
-- test plays the agent with hashline/<method> LSP requests (the edits come back as
-- workspace/applyEdit, which Neovim applies to its buffers) and the user with
-- nvim_buf_set_lines. Writes "PASS name" / "FAIL name: why" lines to $RESULTS (common.lua), then
-- quits.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local compat = H.compat
local ws = H.work .. '/ws'

-- A file of the workspace: its bytes on disk.
local function read_file(name)
  return H.read_file(ws .. '/' .. name)
end

H.write_file(ws .. '/a.txt', H.numbered(50))
H.write_file(ws .. '/b.txt', H.numbered(20))
H.write_file(ws .. '/c.txt', H.numbered(60))

local client_id
local bufs = {}

-- One hashline/<method> request; waits (running the event loop, so applyEdit is served).
local function request(method, params)
  local done, result, err = false, nil, nil
  local client = vim.lsp.get_client_by_id(client_id)
  compat.request(client, 'hashline/' .. method, params, function(e, r)
    err, result, done = e, r, true
  end, bufs['a.txt'])
  assert(H.wait(30000, function() return done end), method .. ' timed out')
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

local ok = H.test('attach', function()
  client_id = compat.start_client({
    name = 'hashline',
    cmd = { H.bin, 'lsp', '--log-file', H.work .. '/hashline.log', '--log-level', 'debug' },
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
  assert(H.wait(10000, function()
    local c = vim.lsp.get_client_by_id(client_id)
    return c and c.initialized
  end), 'not initialized')
  assert(H.wait(10000, function()
    local status = request('status', {})
    return #status.documents == 2
  end), 'documents not open in the sidecar')
end)

local a = H.numbered_lines(50)
local op1
ok = ok and H.test('undo-restores-agent-lines-keeps-user-line', function()
  op1 = agent_replace('a.txt', { { old = 'line 10\nline 11\nline 12\n', new = 'A10\nA11\nA12\n' } })
  assert(lines_of('a.txt')[11] == 'A11', 'agent edit not in the buffer')
  user_set('a.txt', 40, 'user 40')
  local result = request('undo', { op = op1 })
  assert(result.status == 'applied', vim.inspect(result))
  a[40] = 'user 40'
  expect_lines('a.txt', a)
end)

local op2
ok = ok and H.test('undo-conflict-when-user-touched-the-lines', function()
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
ok = ok and H.test('turn-of-three-ops-across-buffer-and-disk', function()
  turn = request('turn', { action = 'begin', session = 'agent' }).turn
  agent_replace('a.txt', { { old = 'line 20\n', new = 'A20\n' } })
  agent_replace('b.txt', { { old = 'line 5\n', new = 'B5\n' } })
  agent_replace('a.txt', { { old = 'line 30\n', new = 'A30\n' } })
  assert(lines_of('a.txt')[20] == 'A20' and lines_of('a.txt')[30] == 'A30', 'buffer edits')
  assert(read_file('b.txt'):find('\nB5\n'), 'b.txt on disk not edited')
  assert(read_file('a.txt') == H.numbered(50), 'a.txt on disk changed')
end)

ok = ok and H.test('rewind-refused-whole-on-conflict', function()
  local b_text = read_file('b.txt')
  H.write_file(ws .. '/b.txt', (b_text:gsub('B5', 'B5 by user')))
  local before = lines_of('a.txt')
  local result = request('rewind', { turn = turn, session = 'agent' })
  assert(result.status == 'refused' and result.error.code == 'CONFLICT', vim.inspect(result))
  expect_lines('a.txt', before)
  assert(read_file('b.txt'):find('B5 by user'), 'b.txt was written')
  H.write_file(ws .. '/b.txt', b_text)
end)

ok = ok and H.test('rewind-turn-across-buffer-and-disk', function()
  local result = request('rewind', { turn = turn, session = 'agent' })
  assert(result.status == 'applied', vim.inspect(result))
  assert(#result.reverted == 3, vim.inspect(result.reverted))
  a[20] = 'line 20'
  a[30] = 'line 30'
  expect_lines('a.txt', a)
  assert(read_file('b.txt') == H.numbered(20), 'b.txt: ' .. read_file('b.txt'))
end)

local c = H.numbered_lines(60)
local op3
ok = ok and H.test('three-hunk-op', function()
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
  H.wait(10000, function()
    first = request('pending', { path = 'c.txt' }).files[1].hunks[1]
    return first.line == 11
  end)
  assert(first.id == op3 .. '#1' and first.line == 11, vim.inspect(first))
end)

ok = ok and H.test('reject-hunks-1-and-3-keeps-hunk-2-and-typing', function()
  for _, k in ipairs({ 1, 3 }) do
    local result = request('reject', { hunk = op3 .. '#' .. k })
    assert(result.status == 'applied', vim.inspect(result))
  end
  c[30] = 'H2'
  c[31] = 'typed next to H2'
  table.insert(c, 2, 'typed at the top')
  expect_lines('c.txt', c)
end)

ok = ok and H.test('reject-conflict-when-user-changed-the-hunk', function()
  user_set('c.txt', 31, 'H2 edited by the user')
  local before = lines_of('c.txt')
  local result = request('reject', { hunk = op3 .. '#2' })
  assert(result.status == 'refused' and result.error.code == 'CONFLICT', vim.inspect(result))
  expect_lines('c.txt', before)
end)

if client_id then
  compat.stop(client_id)
  H.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end)
end
H.finish()
