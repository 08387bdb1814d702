-- Headless Neovim (each tested version) with `hashline lsp` attached through a plain LSP client
-- (no plugin: vim.lsp.start_client, or vim.lsp.start{attach = false} on 0.11+, through the
-- plugin's version shims in compat.lua), root_dir a temp workspace. A buffer gets unsaved text;
-- the `hashline` CLI, run as a separate process, reads that buffer and edits it by anchor: the
-- edit lands in the buffer (the sidecar sends workspace/applyEdit, Neovim applies it), and the
-- file on disk is untouched. Writes "PASS name" / "FAIL name: why" lines to $RESULTS
-- (common.lua), then quits.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local compat = H.compat
local ws = H.work .. '/ws'
local path = ws .. '/todo.txt'
local disk_text = 'buy milk\nwalk dog\nwrite report\n'

H.write_file(path, disk_text)

local client_id, bufnr
local ok = H.test('attach', function()
  client_id = compat.start_client({
    name = 'hashline',
    cmd = { H.bin, 'lsp', '--log-file', H.work .. '/hashline.log', '--log-level', 'debug' },
    root_dir = ws,
    workspace_folders = { { uri = vim.uri_from_fname(ws), name = 'ws' } },
  })
  assert(client_id, 'the client did not start')
  vim.cmd('edit ' .. path)
  bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)
  assert(H.wait(10000, function()
    local c = vim.lsp.get_client_by_id(client_id)
    return c and c.initialized
  end), 'not initialized')
  -- unsaved text in the buffer
  vim.api.nvim_buf_set_lines(bufnr, 1, 2, false, { 'walk dog (unsaved)' })
  assert(vim.bo[bufnr].modified, 'buffer should be modified')
end)

local anchor
ok = ok and H.test('cli-read-sees-the-buffer', function()
  local code, out, err
  assert(H.wait(10000, function()
    code, out, err = H.cli(ws, { 'read', 'todo.txt', '--json' })
    if code ~= 0 then return false end
    local view = vim.fn.json_decode(out)
    return view.lines[2].text == 'walk dog (unsaved)'
  end), 'read did not see the unsaved line: ' .. tostring(code) .. ' ' .. tostring(out) .. ' ' .. tostring(err))
  local view = vim.fn.json_decode(out)
  anchor = view.lines[2].anchor
end)

ok = ok and H.test('cli-edit-lands-in-the-buffer', function()
  local edits = vim.fn.json_encode({ { op = 'replace', anchor = anchor, content = 'walk dog twice' } })
  local code, out, err = H.cli(ws, { 'edit', 'todo.txt', '--edits', edits })
  assert(code == 0, 'edit exit ' .. code .. ': ' .. err)
  assert(out:find('(buffer)', 1, true), 'not a buffer edit: ' .. out)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  assert(vim.deep_equal(lines, { 'buy milk', 'walk dog twice', 'write report' }),
    'buffer: ' .. vim.inspect(lines))
end)

ok = ok and H.test('disk-untouched', function()
  local text = H.read_file(path)
  assert(text == disk_text, 'disk changed: ' .. tostring(text))
end)

ok = ok and H.test('stale-anchor-refused', function()
  local edits = vim.fn.json_encode({ { op = 'replace', anchor = anchor, content = 'x' } })
  local code, _, err = H.cli(ws, { 'edit', 'todo.txt', '--edits', edits })
  assert(code == 1, 'exit ' .. code)
  assert(err:sub(1, 12) == 'STALE_ANCHOR', 'stderr: ' .. err)
end)

if client_id then
  compat.stop(client_id)
  H.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end)
end
H.finish()
