-- Headless Neovim (each tested version) with the hashline plugin (setup{}) and clangd attached
-- to ws/shapes.cpp as a second LSP client, the buffer holding an unsaved function above the code.
-- The `hashline` CLI, a separate process, asks for the outline and for single symbols as an agent
-- would; the plugin answers the sidecar's hashline/documentSymbol from clangd. Writes
-- "PASS name" / "FAIL name: why" lines to $RESULTS (common.lua), then quits.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local compat = H.compat
local hashline = require('hashline')
local ws = H.work .. '/ws'
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

local function names_of(outline)
  local names = {}
  for _, s in ipairs(outline.symbols) do
    names[s.qualifiedName] = s
  end
  return names
end

vim.fn.mkdir(ws .. '/.git', 'p')
H.write_file(cpp, cpp_disk)
H.write_file(ws .. '/compile_flags.txt', '-std=c++17\n')
H.write_file(txt, 'first note\nsecond note\n')
H.write_file(closed, 'int closed_fn() { return 0; }\n')

local bufnr, clangd_id
local ok = H.test('attach-hashline-and-clangd', function()
  hashline.setup({ cmd = { H.bin, 'lsp', '--log-file', H.work .. '/hashline.log', '--log-level', 'debug' } })
  bufnr = H.open(cpp)
  clangd_id = compat.start_client({
    name = 'clangd',
    cmd = { 'clangd', '--log=error', '--pch-storage=memory' },
    root_dir = ws,
    workspace_folders = { { uri = vim.uri_from_fname(ws), name = 'ws' } },
    flags = { debounce_text_changes = 20 },
  })
  assert(clangd_id, 'clangd did not start')
  vim.lsp.buf_attach_client(bufnr, clangd_id)
  assert(H.wait(20000, function()
    local client = vim.lsp.get_client_by_id(clangd_id)
    return client and client.initialized and compat.attached(client, bufnr)
  end), 'clangd not attached')
  -- The user types a function above the code and does not save (after clangd's didOpen: on 0.7
  -- a client's didOpen resets the buffer version every client shares).
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, TYPED)
  assert(vim.bo[bufnr].modified, 'buffer should be modified')
end)

ok = ok and H.test('outline-lists-every-function-of-the-live-buffer', function()
  local outline
  assert(H.wait(30000, function()
    local code, result = H.cli_json(ws, { 'outline', 'shapes.cpp' })
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
  local code, out, err = H.cli(ws, { 'outline', 'shapes.cpp' })
  assert(code == 0 and out:find('\n11%-13 function helper\n', 1) and out:find('\n    6%-6 method geo.Shape.area\n', 1),
    out .. err)
end)

local helper_read
ok = ok and H.test('read-symbol-returns-exactly-its-lines', function()
  local code, result, raw = H.cli_json(ws, { 'read', 'shapes.cpp', '--symbol', 'helper', '--session', 'agent' })
  assert(code == 0, raw)
  helper_read = result
  assert(result.symbol.qualifiedName == 'helper' and result.from == 11 and result.to == 13, raw)
  local want = vim.api.nvim_buf_get_lines(bufnr, 10, 13, false)
  assert(#result.lines == 3, raw)
  for i, line in ipairs(result.lines) do
    assert(line.text == want[i], 'line ' .. i .. ': ' .. line.text .. ' ~= ' .. want[i])
  end
  code, result, raw = H.cli_json(ws, { 'read', 'shapes.cpp', '--symbol', 'Shape::area' })
  assert(code == 0 and result.from == 6 and result.to == 6 and #result.lines == 1, raw)
  assert(result.lines[1].text == '  int area() const { return w * h; }', raw)
  local out, err
  code, out, err = H.cli(ws, { 'read', 'shapes.cpp', '--symbol', 'main' })
  assert(code == 0 and out:find('^# symbol main  function\n') and out:find('\n15:%w+:%w+→int main%(%) {'), out .. err)
end)

ok = ok and H.test('an-edit-follows-the-symbol-read', function()
  local anchor = helper_read.lines[2].anchor
  local code, result, raw = H.cli_json(ws, { 'edit', 'shapes.cpp', '--session', 'agent', '--agent', 'bot',
    '--no-diagnostics', '--edits', vim.fn.json_encode({ { op = 'replace', anchor = anchor, content = '  return x + 2;' } }) })
  assert(code == 0 and result.status == 'applied', raw)
  assert(vim.api.nvim_buf_get_lines(bufnr, 11, 12, false)[1] == '  return x + 2;', 'buffer line 12')
  assert(vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] == TYPED[1], 'typing lost')
  assert(H.read_file(cpp) == cpp_disk, 'the disk changed')
end)

ok = ok and H.test('unknown-symbol-is-symbol-not-found', function()
  local code, out, err = H.cli(ws, { 'read', 'shapes.cpp', '--symbol', 'Circle.area' })
  assert(code == 1 and err:find('SYMBOL_NOT_FOUND', 1, true) and err:find('hashline outline', 1, true), out .. err)
  assert(err:find('note: geo.Shape.area', 1, true), err)
  code, out, err = H.cli(ws, { 'read', 'shapes.cpp', '--symbol', 'helper', '--from', '2' })
  assert(code == 2 and err:find('--symbol', 1, true), out .. err)
end)

ok = ok and H.test('a-file-no-language-server-is-attached-to-is-no-symbols', function()
  H.open(txt)
  local code, out, err = H.cli(ws, { 'outline', 'notes.txt' })
  assert(code == 1 and err:find('NO_SYMBOLS', 1, true) and err:find('no language server is attached', 1, true), out .. err)
  assert(err:find('--from/--to', 1, true), 'hint: ' .. err)
  -- the plain read still works
  code, out, err = H.cli(ws, { 'read', 'notes.txt', '--from', '1', '--to', '1' })
  assert(code == 0 and out:find('→first note', 1, true), out .. err)
end)

ok = ok and H.test('a-file-not-open-in-neovim-is-no-symbols', function()
  local code, out, err = H.cli(ws, { 'read', 'closed.cpp', '--symbol', 'closed_fn' })
  assert(code == 1 and err:find('NO_SYMBOLS', 1, true) and err:find('not open in the editor', 1, true), out .. err)
end)

if clangd_id then compat.stop(clangd_id, true) end
H.finish()
