-- Headless Neovim (each tested version; a plain LSP client through the plugin's version shims,
-- compat.lua) as the editor of `hashline lsp`: type into a real buffer in many ways and check
-- after each step that hashline/snapshot (SHA-256, line count, version) equals the buffer's own
-- text as Neovim sends it (lines joined by the fileformat's EOL, plus a final EOL when 'eol' is
-- set). Writes one "PASS name" / "FAIL name: why" line per check to $RESULTS (common.lua), then
-- quits.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local compat = H.compat
local work = H.work

local client_id, bufnr, client

-- hashline/snapshot, synchronously (spins the event loop while waiting).
local function snapshot(buf)
  local reply
  compat.request(client, 'hashline/snapshot', { textDocument = { uri = vim.uri_from_bufnr(buf) } },
    function(err, result) reply = { err = err, result = result } end, buf)
  if not vim.wait(20000, function() return reply ~= nil end, 5) then return nil, 'no reply' end
  if reply.err then return nil, vim.inspect(reply.err) end
  return reply.result
end

local function check(name, buf)
  buf = buf or bufnr
  local text = H.lsp_text(buf)
  local snap, err = snapshot(buf)
  if not snap then return H.record(false, name, err) end
  local want = vim.fn.sha256(text)
  local unified = text:gsub('\r\n', '\n') -- CRLF is one line break
  local _, breaks = unified:gsub('[\r\n]', '')
  local problems = {}
  if snap.sha256 ~= want then table.insert(problems, 'sha256 ' .. snap.sha256 .. ' ~= buffer ' .. want) end
  if snap.lineCount ~= breaks + 1 then
    table.insert(problems, 'lineCount ' .. snap.lineCount .. ' ~= ' .. (breaks + 1))
  end
  local tick = vim.lsp.util.buf_versions[buf]
  if tick and snap.version ~= tick then
    table.insert(problems, 'version ' .. snap.version .. ' ~= buffer version ' .. tick)
  end
  H.record(#problems == 0, name, table.concat(problems, '; '))
end

local keys = H.type_keys

local ok, err = pcall(function()
  local sample = work .. '/sample.txt'
  H.write_file(sample, 'hello world\nemoji \u{1F600} here\n\u{4E2D}\u{6587} line\n\tindented\nlast line\n')
  vim.cmd('edit ' .. vim.fn.fnameescape(sample))
  bufnr = vim.api.nvim_get_current_buf()

  local initialized = false
  client_id = compat.start_client({
    name = 'hashline',
    cmd = { H.bin, 'lsp', '--log-file', work .. '/hashline.log', '--log-level', 'debug' },
    root_dir = work,
    flags = { debounce_text_changes = 0 },
    on_init = function() initialized = true end,
  })
  assert(client_id, 'the client did not start')
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'buf_attach_client failed')
  assert(vim.wait(10000, function() return initialized end, 10), 'initialize timed out')
  client = vim.lsp.get_client_by_id(client_id)
  -- 0.7.2 offers no encodings and 0.10 only utf-16 (so utf-16); 0.12 offers utf-8 first, which
  -- the server takes: the checks below then run on byte columns instead of UTF-16 ones.
  local offered = vim.tbl_get(vim.lsp.protocol.make_client_capabilities(), 'general', 'positionEncodings') or {}
  local expected = vim.tbl_contains(offered, 'utf-8') and 'utf-8' or 'utf-16'
  H.record(client.offset_encoding == expected, 'negotiated ' .. expected .. ' (Neovim offers '
    .. (#offered > 0 and table.concat(offered, ', ') or 'none') .. ')', client.offset_encoding)

  check('didOpen mirrors the file')

  -- API edits: byte columns in the API, UTF-16 columns on the wire.
  vim.api.nvim_buf_set_text(bufnr, 1, 10, 1, 10, { 'X' }) -- right after the emoji
  check('set_text after an astral character')
  vim.api.nvim_buf_set_text(bufnr, 2, 3, 2, 6, { '\u{56FD}' }) -- replace 文 by 国
  check('set_text replacing a CJK character')
  vim.api.nvim_buf_set_text(bufnr, 0, 5, 2, 0, { ' spans', 'two ' }) -- multi-line replacement
  check('set_text across lines')
  vim.api.nvim_buf_set_lines(bufnr, 1, 1, false, { 'inserted \u{1D4B3}', 'another' })
  check('set_lines inserting lines')
  vim.api.nvim_buf_set_lines(bufnr, 0, 2, false, {})
  check('set_lines deleting lines')
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { 'appended at the end' })
  check('set_lines appending at the end')

  -- Real typing through insert mode.
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  keys('A typed<Esc>')
  check('typing at the end of a line')
  keys('Go\u{E9}t\u{E9} \u{1F600} \u{4E2D}<Esc>')
  check('typing a new line with multibyte characters')
  keys('0x')
  check('x deletes a 2-byte character')
  keys('gg0i<CR><CR><Esc>')
  check('Enter at the start of the buffer')
  keys('jjJ')
  check('J joins lines')
  keys('ggdd')
  check('dd deletes a line')
  keys('u')
  check('undo')
  keys('<C-r>')
  check('redo')
  keys('G$i<BS><BS><BS><Esc>')
  check('backspace over astral and CJK characters')
  keys('ggi<BS><Esc>jI<BS><Esc>')
  check('backspace at a line start joins lines')
  keys('ggyG')
  keys('Gp')
  check('paste of the whole buffer')
  keys(':%s/e/\u{20AC}/g<CR>')
  check(':substitute on every line')
  keys('gg>G')
  check('shift every line')
  keys('ggVGgU')
  check('uppercase every line')

  -- Many random edits in a larger buffer.
  local lines = {}
  for i = 1, 3000 do
    lines[i] = string.format('line %d \u{4E2D}\u{1F600} %s', i, string.rep('x', i % 40))
  end
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  check('replace everything with 3000 lines')
  math.randomseed(7)
  local pieces = { 'a', '\u{E9}', '\u{4E2D}', '\u{1F600}', 'zz', '' }
  for step = 1, 400 do
    local count = vim.api.nvim_buf_line_count(bufnr)
    local row = math.random(0, count - 1)
    local line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, true)[1]
    -- A byte column on a character boundary.
    local chars = vim.fn.strchars(line)
    local col = vim.fn.byteidx(line, math.random(0, chars))
    local kind = math.random(1, 4)
    if kind == 1 then
      vim.api.nvim_buf_set_text(bufnr, row, col, row, col, { pieces[math.random(#pieces)] })
    elseif kind == 2 and col < #line then
      local stop = vim.fn.byteidx(line, vim.fn.charidx(line, col) + 1)
      vim.api.nvim_buf_set_text(bufnr, row, col, row, stop, {})
    elseif kind == 3 then
      vim.api.nvim_buf_set_text(bufnr, row, col, row, col, { '', '' }) -- split the line
    elseif row + 1 < count then
      vim.api.nvim_buf_set_lines(bufnr, row, row + 1, false, {}) -- delete a line
    end
    if step % 100 == 0 then check('random edits, step ' .. step) end
  end

  -- Saving is not a change; a second buffer is mirrored on its own.
  vim.cmd('write')
  check('after :write')
  local other = work .. '/other.txt'
  H.write_file(other, 'second\r\nfile\r\n')
  vim.cmd('edit ++ff=dos ' .. vim.fn.fnameescape(other))
  local buf2 = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf2, client_id)
  vim.wait(200)
  check('second buffer with CRLF line endings', buf2)
  keys('ggA!<Esc>')
  check('typing in the CRLF buffer', buf2)
  check('first buffer unaffected', bufnr)

  compat.stop(client_id)
  vim.wait(500)
end)
if not ok then H.record(false, 'script error', tostring(err)) end
H.finish()
