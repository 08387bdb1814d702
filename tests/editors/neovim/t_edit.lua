-- Anchored reads and edits through the Lua API on a buffer with unsaved changes (issue 3's
-- Neovim test): read returns rows bound to the live version; an edit lands in the buffer and not
-- on disk; typing above the target rebases the anchor; changing the target line gets STALE_ANCHOR
-- with fresh anchors; a version race (the user types while the edit is in flight) is re-verified
-- and retried, with the plugin's strict applyEdit handler and with Neovim's own; async variants.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

local root = H.work .. '/edit'
local path = root .. '/proj/notes.txt'
local disk_text = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\n'
local hashline, bufnr

local function row_anchor(result, line)
  for _, row in ipairs(result.lines or {}) do
    if row.line == line then
      return row.anchor
    end
  end
  error('no row for line ' .. line .. ' in read result')
end

local function read(opts)
  return H.need('hashline.read', hashline.read(bufnr, opts))
end

local function edit(edits, opts)
  return H.need('hashline.edit', hashline.edit(bufnr, edits, opts))
end

local function applied(result, what)
  H.check(result.status == 'applied', (what or 'edit') .. ' not applied: ' .. vim.inspect(result))
  return result
end

H.run({
  { 'open-with-unsaved-changes', function()
    vim.fn.mkdir(root .. '/proj/.git', 'p')
    hashline = H.setup()
    bufnr = H.open(path, disk_text)
    H.type_keys('ggAA<Esc>')                 -- "alphaA": unsaved
    H.check(vim.bo[bufnr].modified, 'modified')
    H.assert_mirrored(bufnr)
  end },

  { 'read-rows-bound-to-live-buffer', function()
    local r = read()
    local lines = H.lines(bufnr)
    H.eq(vim.uri_from_bufnr(bufnr), r.uri, 'uri')
    H.eq(vim.lsp.util.buf_versions[bufnr], r.version, 'version = the buffer version')
    H.eq(#lines, r.lineCount, 'lineCount (no phantom line after the final newline)')
    H.eq('block', r.tier, 'default tier')
    H.eq(#lines, #r.lines, 'one row per line')
    local rows_text = {}
    for i, row in ipairs(r.lines) do
      H.eq(i, row.line, 'row line number')
      H.eq(lines[i], row.text, 'row text')
      H.check(row.anchor:match('^' .. i .. ':[0-9a-z][0-9a-z][0-9a-z]:[0-9a-z][0-9a-z][0-9a-z]$'),
        'block anchor LINE:LLL:BBB, got ' .. row.anchor)
      rows_text[i] = row.anchor .. '\u{2192}' .. row.text
    end
    H.eq(table.concat(rows_text, '\n'), (r.text:gsub('\n$', '')), 'text = the rows joined')
    H.eq('alphaA', r.lines[1].text, 'unsaved text is what is read')
  end },

  { 'read-range-and-line-tier', function()
    local r = read({ from = 3, to = 4, tier = 'line' })
    H.eq('line', r.tier, 'tier')
    H.eq(2, #r.lines, 'rows 3..4')
    H.eq(3, r.lines[1].line, 'first row')
    H.check(r.lines[1].anchor:match('^3:[0-9a-z][0-9a-z][0-9a-z]$'), 'line anchor LINE:LLL, got ' .. r.lines[1].anchor)
  end },

  { 'read-async-callback', function()
    local got
    local ret = hashline.read(bufnr, { callback = function(result, err) got = { result = result, err = err } end })
    H.eq(true, ret, 'async call returns true at once')
    H.check(H.wait(15000, function() return got ~= nil end), 'callback never called')
    local r = H.need('hashline.read (async)', got.result, got.err)
    H.eq(vim.lsp.util.buf_versions[bufnr], r.version, 'version')
  end },

  { 'edit-lands-in-unsaved-buffer', function()
    local r = read()
    local result = applied(edit({ { op = 'replace', anchor = row_anchor(r, 3), content = 'GAMMA (agent)' } }))
    H.eq('GAMMA (agent)', H.lines(bufnr)[3], 'line 3 replaced in the buffer')
    H.eq('alphaA', H.lines(bufnr)[1], 'the user\'s unsaved text is kept')
    H.check(vim.bo[bufnr].modified, 'buffer still modified')
    H.eq(disk_text, H.read_file(path), 'disk untouched')
    H.eq(vim.lsp.util.buf_versions[bufnr], result.version, 'result version = buffer version')
    H.assert_mirrored(bufnr, 'after the edit')
  end },

  { 'edit-batch-all-ops', function()
    local r = read()
    local before = H.lines(bufnr)
    applied(edit({
      { op = 'insert_before', anchor = row_anchor(r, 2), content = 'before beta' },
      { op = 'insert_after', anchor = row_anchor(r, 4), content = 'after delta\nsecond' },
      { op = 'delete', anchor = row_anchor(r, 6), ['end'] = row_anchor(r, 7) },
      { op = 'replace', anchor = row_anchor(r, 9), content = 'IOTA' },
    }))
    local want = { before[1], 'before beta', before[2], before[3], before[4], 'after delta', 'second', before[5],
      before[8], 'IOTA', before[10] }
    H.eq(want, H.lines(bufnr), 'buffer after the batch')
    H.assert_mirrored(bufnr)
  end },

  { 'buffer-undo-reverts-agent-edit', function()
    local before = H.lines(bufnr)
    local r = read()
    applied(edit({ { op = 'replace', anchor = row_anchor(r, 1), content = 'undo me' } }))
    H.eq('undo me', H.lines(bufnr)[1], 'edit landed')
    H.type_keys('u')
    H.eq(before, H.lines(bufnr), "Neovim's own undo restores the text")
    H.assert_mirrored(bufnr)
  end },

  { 'rebase-after-typing-above', function()
    local r = read()
    local target_text = r.lines[5].text
    H.type_keys('ggOtyped one<CR>typed two<Esc>')   -- two lines above the target
    local result = applied(edit({ { op = 'replace', anchor = row_anchor(r, 5), content = 'REBASED' } }), 'rebased edit')
    local lines = H.lines(bufnr)
    H.eq('typed one', lines[1], 'typed line kept')
    H.eq('typed two', lines[2], 'typed line kept')
    H.eq('REBASED', lines[7], 'edit landed on the moved line (5 -> 7)')
    H.check(not vim.tbl_contains(lines, target_text), 'old target text gone')
    H.check(type(result.rebased) == 'table' and #result.rebased > 0, 'rebase reported: ' .. vim.inspect(result.rebased))
    H.eq(disk_text, H.read_file(path), 'disk untouched')
    H.assert_mirrored(bufnr)
  end },

  { 'stale-anchor-refused', function()
    local r = read()
    vim.api.nvim_win_set_cursor(0, { 4, 0 })
    H.type_keys('A user was here<Esc>')             -- the user changes the target line
    local before = H.lsp_text(bufnr)
    local result = edit({ { op = 'replace', anchor = row_anchor(r, 4), content = 'agent overwrite' } })
    H.eq('refused', result.status, 'status')
    H.eq('STALE_ANCHOR', result.error and result.error.code, 'error code')
    H.check(type(result.error.hint) == 'string' and result.error.hint ~= '', 'fix hint present')
    H.check(result.error.data ~= nil and vim.inspect(result.error.data):find(':', 1, true), 'fresh anchors in data: '
      .. vim.inspect(result.error.data))
    H.eq(before, H.lsp_text(bufnr), 'buffer unchanged')
    H.assert_mirrored(bufnr)
  end },

  { 'not-observed-session-refused', function()
    local result = edit({ { op = 'replace', anchor = '1:aaa:bbb', content = 'x' } }, { session = 'never-read-this' })
    H.eq('refused', result.status, 'status')
    H.eq('NOT_OBSERVED', result.error and result.error.code, 'error code')
  end },

  { 'version-race-retried-strict-handler', function()
    local attach = require('hashline.attach')
    local original = attach.apply_edit_handler
    local calls, typed = 0, false
    attach.apply_edit_handler = function(...)
      calls = calls + 1
      if not typed then -- the user's keystroke reaches the buffer first
        typed = true
        vim.api.nvim_buf_set_lines(bufnr, -1, -1, true, { 'typed during the edit' })
      end
      return original(...)
    end
    local ok, err = pcall(function()
      local r = read()
      local result = applied(edit({ { op = 'replace', anchor = row_anchor(r, 3), content = 'RACED' } }), 'raced edit')
      local lines = H.lines(bufnr)
      H.eq('RACED', lines[3], 'edit landed after the retry')
      H.eq('typed during the edit', lines[#lines], 'keystroke kept')
      H.check(calls >= 2, 'applyEdit retried (calls: ' .. calls .. ')')
      H.eq(vim.lsp.util.buf_versions[bufnr], result.version, 'result version')
      H.assert_mirrored(bufnr)
    end)
    attach.apply_edit_handler = original
    if not ok then
      error(err, 0)
    end
  end },

  { 'version-race-retried-neovim-handler', function()
    -- Neovim's own handler drops a stale edit yet answers applied=true: the server must notice.
    H.setup({ strict_versions = false })
    local other = H.work .. '/edit/plain/race.txt'
    vim.fn.mkdir(H.work .. '/edit/plain/.git', 'p')
    local b = H.open(other, 'one\ntwo\nthree\n')
    -- 0.10+ send didOpen with version 0, and Neovim's handler checks no edit for version 0 (it
    -- would apply this one to the wrong line): a change that keeps the text moves the version on.
    vim.api.nvim_buf_set_lines(b, 0, 1, true, { 'one' })
    local default = vim.lsp.handlers['workspace/applyEdit']
    local calls, typed = 0, false
    vim.lsp.handlers['workspace/applyEdit'] = function(...)
      calls = calls + 1
      if not typed then
        typed = true
        vim.api.nvim_buf_set_lines(b, 0, 0, true, { 'typed first' })
      end
      return default(...)
    end
    local ok, err = pcall(function()
      local r = H.need('hashline.read', hashline.read(b))
      local result = applied(H.need('hashline.edit', hashline.edit(b, { { op = 'replace', anchor = row_anchor(r, 3),
        content = 'THREE' } })), 'raced edit')
      H.eq({ 'typed first', 'one', 'two', 'THREE' }, H.lines(b), 'buffer after the retried edit')
      H.check(calls >= 2, 'applyEdit retried (calls: ' .. calls .. ')')
      H.eq(vim.lsp.util.buf_versions[b], result.version, 'result version')
      H.assert_mirrored(b)
    end)
    vim.lsp.handlers['workspace/applyEdit'] = default
    H.setup()
    if not ok then
      error(err, 0)
    end
  end },

  { 'replace-old-new-lands', function()
    vim.cmd('buffer ' .. bufnr)
    local lines = H.lines(bufnr)
    local target = lines[#lines - 1]
    local result = H.need('hashline.replace', hashline.replace(bufnr, { { old = target, new = target .. ' (replaced)' } }))
    applied(result, 'replace')
    H.eq(target .. ' (replaced)', H.lines(bufnr)[#lines - 1], 'old/new replace landed')
    H.eq(disk_text, H.read_file(path), 'disk untouched')
    H.assert_mirrored(bufnr)
  end },

  { 'patch-lands-in-open-buffer', function()
    vim.cmd('buffer ' .. bufnr)
    local lines = H.lines(bufnr)
    local patch = table.concat({
      '*** Begin Patch',
      '*** Update File: notes.txt',
      '@@',
      ' ' .. lines[1],
      '-' .. lines[2],
      '+' .. lines[2] .. ' (patched)',
      '*** End Patch',
    }, '\n') .. '\n'
    local result = H.need('hashline.patch', hashline.patch(bufnr, patch))
    applied(result, 'patch')
    H.eq(lines[2] .. ' (patched)', H.lines(bufnr)[2], 'patch landed in the buffer')
    H.eq(disk_text, H.read_file(path), 'disk untouched (the file is open)')
    H.assert_mirrored(bufnr)
  end },

  { 'version-race-retried-with-debounce', function()
    -- A user who keeps Neovim's usual 150 ms debounce: the keystroke's didChange is held back
    -- while the plugin refuses the in-flight edit; the server must still converge.
    H.setup({ debounce = 150 })
    vim.fn.mkdir(H.work .. '/edit/slow/.git', 'p')
    local b = H.open(H.work .. '/edit/slow/slow.txt', 'a\nb\nc\nd\n')
    local attach = require('hashline.attach')
    local original = attach.apply_edit_handler
    local calls, typed = 0, false
    attach.apply_edit_handler = function(...)
      calls = calls + 1
      if not typed then
        typed = true
        vim.api.nvim_buf_set_lines(b, 0, 0, true, { 'typed first' })
      end
      return original(...)
    end
    local ok, err = pcall(function()
      local r = H.need('hashline.read', hashline.read(b))
      local result = applied(H.need('hashline.edit', hashline.edit(b, { { op = 'replace', anchor = row_anchor(r, 4),
        content = 'D' } })), 'raced edit')
      H.eq({ 'typed first', 'a', 'b', 'c', 'D' }, H.lines(b), 'buffer after the retried edit')
      H.check(calls >= 2, 'applyEdit retried (calls: ' .. calls .. ')')
      H.assert_mirrored(b)
    end)
    attach.apply_edit_handler = original
    H.setup()
    if not ok then
      error(err, 0)
    end
  end },

  { 'edit-async-callback', function()
    vim.cmd('buffer ' .. bufnr)
    local r = read()
    local got
    local ret = hashline.edit(bufnr, { { op = 'insert_after', anchor = 'EOF', content = 'async tail' } },
      { callback = function(result, err) got = { result = result, err = err } end })
    H.eq(true, ret, 'async call returns true at once')
    H.check(H.wait(15000, function() return got ~= nil end), 'callback never called')
    applied(H.need('hashline.edit (async)', got.result, got.err))
    local lines = H.lines(bufnr)
    H.eq('async tail', lines[#lines], 'appended at EOF')
    H.check(r.version < vim.lsp.util.buf_versions[bufnr], 'version moved')
    H.eq(disk_text, H.read_file(path), 'disk still untouched')
  end },
})
