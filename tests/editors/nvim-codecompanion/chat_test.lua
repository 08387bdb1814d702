-- codecompanion.nvim's own chat (its openai HTTP adapter, pointed at the scripted endpoint's
-- Chat Completions API) with the tools the hashline plugin gives it, no configuration:
--   1. `@{hashline}` in the prompt offers hashline_read and hashline_edit to the model;
--   2. hashline_read returns the live buffer (the unsaved typed line included) as anchored rows;
--   3. hashline_edit by an anchor from that read — while the user typed another line between the
--      model's read and its edit — lands in the buffer with both typed lines kept, the disk
--      untouched; 4. journaled under agent `codecompanion`.
-- Then the measurement of codecompanion's built-in edit tool, insert_edit_into_file, on the same
-- buffer: it reads the buffer when the model calls it and, once the user accepts its diff in the
-- chat, replaces every line and runs `:write`. The user types a line while that prompt waits:
--   5. measured: that line is lost, the buffer is saved (the earlier typing goes to disk), and
--      hashline's journal gets no op for it (a whole-buffer set_lines is, to the sidecar, typing).
-- Last, 6. hashline_read of a file no buffer holds is read from the disk by the project's sidecar,
-- and of a file outside every project is an error naming the fix.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')
local LINE3_NEW = 'line 3, changed through hashline_edit'
local LINE7_NEW = 'line 7, changed by insert_edit_into_file'
local TYPED_LATE = 'typed by the user while insert_edit_into_file waited, not saved'
local OUTSIDE = '/nonexistent-hashline-test-dir/x.txt'

H.drive(function()
  local ws, path = H.workspace()
  H.write_file(ws .. '/b.txt', H.numbered(4, 'b line '))
  local release = H.work .. '/release-edit'
  local _, port, log = H.model.start(H.work .. '/model', {
    { { call = 'hashline_read', arguments = { path = 'a.txt' } } },
    -- held until the user typed (the test creates `release`); line 4 is file line 3 (the typed
    -- line is line 1)
    { { waitFor = release }, { call = 'hashline_edit', arguments = { path = 'a.txt',
      edits = { { op = 'replace', anchor = '{{anchor:4}}', content = LINE3_NEW } } } } },
    { { text = 'Changed line 3.' } },
    { { call = 'insert_edit_into_file', arguments = { filepath = path, mode = 'append', explanation = 'line 7',
      edits = { { oldText = 'line 7', newText = LINE7_NEW, replaceAll = false } } } } },
    { { text = 'Changed line 7.' } },
    { { call = 'hashline_read', arguments = { path = 'b.txt', from = 2, to = 3 } },
      { call = 'hashline_read', arguments = { path = OUTSIDE } } },
    { { text = 'Read them.' } },
  })
  H.setup_both({}, {
    adapters = { http = { openai = function()
      return require('codecompanion.adapters').extend('openai', {
        url = string.format('http://127.0.0.1:%d/v1/chat/completions', port),
        env = { api_key = 'fake-key' },
      })
    end } },
    interactions = { chat = { adapter = 'openai' } },
  })
  local bufnr = H.open_with_typing(path)
  local chat = H.chat('openai')
  H.say(chat, '@{hashline} Change line 3 of a.txt.')

  -- The user types a line after the model's read, before its edit.
  H.check(H.wait(H.agent_timeout, function() return #H.model.requests(log) >= 2 end),
    'the model never got the read result: ' .. H.chat_text(chat))
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, true, { H.TYPED_DURING })
  H.assert_mirrored(bufnr, 'typing between the read and the edit')
  H.write_file(release, '')
  H.wait_finished(3, 'the hashline prompt')
  local requests = H.model.requests(log)

  H.test('chat: @{hashline} offers hashline_read and hashline_edit', function()
    local names = {}
    for _, tool in ipairs(requests[1].tools or {}) do
      table.insert(names, tool['function'] and tool['function'].name)
    end
    H.check(vim.tbl_contains(names, 'hashline_read') and vim.tbl_contains(names, 'hashline_edit'),
      'tools of the first request: ' .. vim.inspect(names))
  end)

  H.test('chat: hashline_read returns the live buffer with anchors', function()
    local read = H.model.tool_output(requests, 'call_0_0') or ''
    H.check(read:find('1:[%w]+:[%w]+→' .. H.TYPED_BEFORE) ~= nil, 'read result: ' .. read)
    H.check(read:find('4:[%w]+:[%w]+→line 3') ~= nil, 'read result: ' .. read)
  end)

  H.test('chat: hashline_edit lands in the buffer, typing kept, disk untouched', function()
    local expected = vim.list_extend({ H.TYPED_BEFORE }, H.with_line(3, LINE3_NEW))
    table.insert(expected, H.TYPED_DURING)
    H.check(H.wait(10000, function() return vim.deep_equal(expected, H.lines(bufnr)) end),
      'buffer: ' .. vim.inspect(H.lines(bufnr)) .. ' edit result: ' .. tostring(H.model.tool_output(requests, 'call_1_0')))
    H.eq(H.text_of(H.LINES), H.read_file(path), 'disk')
    H.eq(true, vim.bo[bufnr].modified, 'buffer still modified')
  end)

  H.test('chat: the edit is journaled under codecompanion', function()
    local ops = H.log_ops(ws)
    H.eq(1, #ops, 'journal ops: ' .. vim.inspect(ops))
    H.eq('codecompanion', ops[1].agent, 'agent of the op')
  end)

  -- The measurement: codecompanion's own insert_edit_into_file on the same buffer.
  local saved_before = vim.api.nvim_buf_get_changedtick(bufnr)
  H.say(chat, '@{insert_edit_into_file} Change line 7 of a.txt.')
  H.answer_approval(chat, 1, 'Accept', function()
    vim.api.nvim_buf_set_lines(bufnr, -1, -1, true, { TYPED_LATE })
    H.assert_mirrored(bufnr, 'typing while insert_edit_into_file waits')
  end)
  H.wait_finished(5, 'the insert_edit_into_file prompt')

  H.test('chat: measured: insert_edit_into_file drops typing made during its prompt and saves the buffer', function()
    H.check(H.wait(10000, function() return H.line_of(bufnr, LINE7_NEW) ~= nil end),
      'insert_edit_into_file never changed the buffer: ' .. vim.inspect(H.lines(bufnr)) .. ' ' .. H.chat_text(chat))
    local lost = H.line_of(bufnr, TYPED_LATE) == nil
    local saved = not vim.bo[bufnr].modified
    local disk_has_typing = (H.read_file(path) or ''):find(H.TYPED_BEFORE, 1, true) ~= nil
    local ops = H.log_ops(ws)
    H.note(string.format('insert_edit_into_file: typing during its prompt %s; buffer %s; disk %s the earlier '
      .. 'unsaved typing; journal ops after it: %d (changedtick %d -> %d)', lost and 'LOST' or 'kept',
      saved and 'SAVED' or 'not saved', disk_has_typing and 'HOLDS' or 'lacks', #ops, saved_before,
      vim.api.nvim_buf_get_changedtick(bufnr)))
    H.check(lost and saved and disk_has_typing and #ops == 1, 'the measured behaviour changed: see the NOTE')
  end)

  H.say(chat, '@{hashline} Read lines 2-3 of b.txt and x.txt.')
  H.wait_finished(7, 'the last prompt')

  H.test('chat: hashline_read of a file not open reads the disk; outside every project an error', function()
    local last = H.model.requests(log)
    local b = H.model.tool_output(last, 'call_5_0') or ''
    H.check(b:find('b.txt (version', 1, true) and b:find('2:[%w]+:[%w]+→b line 2') and b:find('3:[%w]+:[%w]+→b line 3')
      and not b:find('b line 1', 1, true), 'read of b.txt: ' .. b)
    local outside = H.model.tool_output(last, 'call_5_1') or ''
    H.check(outside:find('no hashline sidecar serves ' .. OUTSIDE, 1, true), 'read outside: ' .. outside)
  end)
end)
