-- Headless Neovim (each tested version) with the hashline plugin (setup{}) and clangd attached
-- to ws/shapes.cpp as a second LSP client, the buffer holding an unsaved function above the code.
-- The `hashline` CLI, a separate process, asks for the outline and for single symbols as an agent
-- would; the plugin answers the sidecar's hashline/documentSymbol from clangd. Writes
-- "PASS name" / "FAIL name: why" lines to $RESULTS, then quits.
local bin = assert(os.getenv('HASHLINE_BIN'))
local work = assert(os.getenv('WORK'))
local results = assert(io.open(assert(os.getenv('RESULTS')), 'w'))
local compat = require('hashline.compat')
local hashline = require('hashline')
local ws = work .. '/ws'
local cpp = ws .. '/shapes.cpp'
local txt = ws .. '/notes.txt'
local closed = ws .. '/closed.cpp'

local cpp_disk = table.concat({
  'namespace geo {',
  'struct Shape {',
  '  int area() const { return w * h; }',
  '  int w = 1, h = 2;',
  '};',
  '} // namespace geo',
  '',
  'int helper(int x) {',
  '  return x + 1;',
  '}',
  '',
  'int main() {',
  '  geo::Shape s;',
  '  return helper(s.area());',
  '}',
  '',
}, '\n')
local TYPED = { '// typed by the user, not saved', 'int typed_fn() { return 3; }', '' }

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


local function names_of(outline)
  local names = {}
  for _, s in ipairs(outline.symbols) do
    names[s.qualifiedName] = s
  end
  return names
end

vim.fn.mkdir(ws .. '/.git', 'p')
write_file(cpp, cpp_disk)
write_file(ws .. '/compile_flags.txt', '-std=c++17\n')
write_file(txt, 'first note\nsecond note\n')
write_file(closed, 'int closed_fn() { return 0; }\n')

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
  assert(wait(20000, function()
    local client = vim.lsp.get_client_by_id(clangd_id)
    return client and client.initialized and compat.attached(client, bufnr)
  end), 'clangd not attached')
  -- The user types a function above the code and does not save (after clangd's didOpen: on 0.7
  -- a client's didOpen resets the buffer version every client shares).
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, TYPED)
  assert(vim.bo[bufnr].modified, 'buffer should be modified')
end)

ok = ok and step('outline-lists-every-function-of-the-live-buffer', function()
  local outline
  assert(wait(30000, function()
    local code, result = cli_json({ 'outline', 'shapes.cpp' })
    outline = result
    return code == 0 and result.symbols ~= nil and names_of(result)['typed_fn'] ~= nil
  end), 'no outline with the unsaved function: ' .. vim.inspect(outline))
  local names = names_of(outline)
  assert(outline.server == 'clangd', 'server ' .. tostring(outline.server))
  for name, line in pairs({ typed_fn = 2, ['geo.Shape.area'] = 6, helper = 11, main = 15 }) do
    assert(names[name], name .. ' missing: ' .. vim.inspect(vim.tbl_keys(names)))
    assert(names[name].from == line, name .. ' from ' .. tostring(names[name].from) .. ', want ' .. line)
  end
  assert(names.helper.to == 13 and names.main.to == 18, vim.inspect({ names.helper, names.main }))
  assert(names['geo.Shape'] and names['geo.Shape'].kind == 'struct', vim.inspect(names['geo.Shape']))
  local code, out, err = cli({ 'outline', 'shapes.cpp' })
  assert(code == 0 and out:find('\n11%-13 function helper\n', 1) and out:find('\n    6%-6 method geo.Shape.area\n', 1),
    out .. err)
end)

local helper_read
ok = ok and step('read-symbol-returns-exactly-its-lines', function()
  local code, result, raw = cli_json({ 'read', 'shapes.cpp', '--symbol', 'helper', '--session', 'agent' })
  assert(code == 0, raw)
  helper_read = result
  assert(result.symbol.qualifiedName == 'helper' and result.from == 11 and result.to == 13, raw)
  local want = vim.api.nvim_buf_get_lines(bufnr, 10, 13, false)
  assert(#result.lines == 3, raw)
  for i, line in ipairs(result.lines) do
    assert(line.text == want[i], 'line ' .. i .. ': ' .. line.text .. ' ~= ' .. want[i])
  end
  code, result, raw = cli_json({ 'read', 'shapes.cpp', '--symbol', 'Shape::area' })
  assert(code == 0 and result.from == 6 and result.to == 6 and #result.lines == 1, raw)
  assert(result.lines[1].text == '  int area() const { return w * h; }', raw)
  local out, err
  code, out, err = cli({ 'read', 'shapes.cpp', '--symbol', 'main' })
  assert(code == 0 and out:find('^# symbol main  function\n') and out:find('\n15:%w+:%w+→int main%(%) {'), out .. err)
end)

ok = ok and step('an-edit-follows-the-symbol-read', function()
  local anchor = helper_read.lines[2].anchor
  local code, result, raw = cli_json({ 'edit', 'shapes.cpp', '--session', 'agent', '--agent', 'bot',
    '--no-diagnostics', '--edits', vim.fn.json_encode({ { op = 'replace', anchor = anchor, content = '  return x + 2;' } }) })
  assert(code == 0 and result.status == 'applied', raw)
  assert(vim.api.nvim_buf_get_lines(bufnr, 11, 12, false)[1] == '  return x + 2;', 'buffer line 12')
  assert(vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] == TYPED[1], 'typing lost')
  assert(read_file(cpp) == cpp_disk, 'the disk changed')
end)

ok = ok and step('unknown-symbol-is-symbol-not-found', function()
  local code, out, err = cli({ 'read', 'shapes.cpp', '--symbol', 'Circle.area' })
  assert(code == 1 and err:find('SYMBOL_NOT_FOUND', 1, true) and err:find('hashline outline', 1, true), out .. err)
  assert(err:find('note: geo.Shape.area', 1, true), err)
  code, out, err = cli({ 'read', 'shapes.cpp', '--symbol', 'helper', '--from', '2' })
  assert(code == 2 and err:find('--symbol', 1, true), out .. err)
end)

ok = ok and step('a-file-no-language-server-is-attached-to-is-no-symbols', function()
  vim.cmd('edit ' .. txt)
  local txt_buf = vim.api.nvim_get_current_buf()
  assert(wait(10000, function()
    local client = hashline.client(txt_buf)
    return client ~= nil and compat.attached(client, txt_buf)
  end), 'hashline not attached to notes.txt')
  local code, out, err = cli({ 'outline', 'notes.txt' })
  assert(code == 1 and err:find('NO_SYMBOLS', 1, true) and err:find('no language server is attached', 1, true), out .. err)
  assert(err:find('--from/--to', 1, true), 'hint: ' .. err)
  -- the plain read still works
  code, out, err = cli({ 'read', 'notes.txt', '--from', '1', '--to', '1' })
  assert(code == 0 and out:find('→first note', 1, true), out .. err)
end)

ok = ok and step('a-file-not-open-in-neovim-is-no-symbols', function()
  local code, out, err = cli({ 'read', 'closed.cpp', '--symbol', 'closed_fn' })
  assert(code == 1 and err:find('NO_SYMBOLS', 1, true) and err:find('not open in the editor', 1, true), out .. err)
end)

if clangd_id then compat.stop(clangd_id, true) end
results:close()
vim.cmd('qa!')
