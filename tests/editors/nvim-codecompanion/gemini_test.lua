-- Gemini CLI (npm, pinned) in ACP mode (`gemini --acp`), started by codecompanion.nvim's gemini_cli
-- adapter in headless Neovim with the hashline plugin, against the scripted endpoint. Gemini CLI
-- routes its file tools through the client (fs/read_text_file, fs/write_text_file) and asks the
-- client before it writes (session/request_permission); the user keeps typing while that prompt
-- waits, then accepts.
--   PROXY=1: the plugin wraps the adapter's command (`hashline acp -- gemini --acp`, no config).
--     0. :checkhealth hashline names the wrapped adapters and the chat tools;
--     1. the edit lands in the buffer with both typed lines kept, the disk untouched;
--     2. it is journaled under Gemini's name; 3. undoing it restores the line, typing stays;
--     4. a second prompt: the model reads a.txt (read_file) and writes it whole (write_file) with
--        line 5 changed, while the user changes line 5 during the write's prompt: the write is
--        refused to the agent (Gemini reports the tool failed) and the buffer keeps the user's
--        text and all the typing.
--   PROXY=0 (the control): setup{ codecompanion = false }, codecompanion answers fs/* itself —
--     the typing is lost (the buffer is replaced by the disk text plus the change, and an empty
--     last line) and the buffer is saved; the journal has no op; :checkhealth says codecompanion
--     is not wired.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')
local proxy = os.getenv('PROXY') ~= '0'
local name = proxy and 'gemini' or 'gemini-control'
local GEMINI = assert(os.getenv('GEMINI_BIN'), 'GEMINI_BIN not set')
local LINE3_NEW = 'line 3, changed by gemini'
local LINE5_USER = 'line 5, changed by the user while gemini waited'
local LINE5_AGENT = 'line 5, changed by gemini'

H.drive(function()
  local ws, path = H.workspace()
  local _, port, log = H.model.start(H.work .. '/model', {
    { { call = 'replace', arguments = { file_path = path, old_string = 'line 3', new_string = LINE3_NEW,
      instruction = 'Change line 3.' } } },
    { { text = 'Changed line 3.' } },
    { { call = 'read_file', arguments = { file_path = path } } },
    { { call = 'write_file', arguments = { file_path = path, content = H.text_of(vim.list_extend(
      vim.list_extend({ H.TYPED_BEFORE }, H.with_line(5, LINE5_AGENT)), { H.TYPED_DURING })) } } },
    { { text = 'Tried line 5.' } },
  })
  H.agent_home(ws, port)
  H.setup_both({ codecompanion = proxy }, {
    adapters = { acp = { gemini_cli = function()
      return require('codecompanion.adapters').extend('gemini_cli', {
        commands = { default = { GEMINI, '--acp' } },
        defaults = { auth_method = 'gemini-api-key', timeout = 60000 },
      })
    end } },
  })
  local bufnr = H.open_with_typing(path)
  local chat, expected = H.prompt_while_typing('gemini_cli', 'Change line 3 of a.txt.', bufnr, LINE3_NEW)

  H.test(name .. ': :checkhealth hashline says what is wired', function()
    local report = H.checkhealth()
    if proxy then
      H.check(report:find('codecompanion.nvim ACP agents start as `' .. H.bin .. ' acp -- AGENT...`', 1, true)
        and report:find('gemini_cli', 1, true), report)
      H.check(report:find('chats offer hashline_read and hashline_edit', 1, true), report)
    else
      H.check(report:find('codecompanion.nvim: not wired (setup{ codecompanion = false })', 1, true), report)
    end
  end)

  if not proxy then
    H.test(name .. ': without the proxy the typing is lost and the buffer is saved', function()
      H.check(H.wait(10000, function() return H.line_of(bufnr, LINE3_NEW) ~= nil end),
        "gemini's change never reached the buffer: " .. vim.inspect(H.lines(bufnr)))
      -- codecompanion splits the written text at every "\n": the final one adds an empty line
      local replaced = H.with_line(3, LINE3_NEW)
      table.insert(replaced, '')
      H.eq(replaced, H.lines(bufnr), 'buffer after codecompanion replaced it')
      H.eq(false, vim.bo[bufnr].modified, 'buffer modified flag (codecompanion saved it)')
      H.eq(H.written_text(bufnr), H.read_file(path), 'disk (saved by codecompanion)')
      H.note(name .. ': ' .. #H.lines(bufnr) .. ' lines in the buffer; both typed lines gone')
    end)
    H.test(name .. ': without the proxy the journal has no record of the change', function()
      local ops = H.log_ops(ws)
      H.eq(0, #ops, 'journal ops: ' .. vim.inspect(ops))
    end)
    return
  end

  H.test(name .. ': the edit lands in the buffer with the typing kept', function()
    H.check(H.wait(10000, function() return H.line_of(bufnr, LINE3_NEW) ~= nil end),
      "gemini's change never reached the buffer: " .. vim.inspect(H.lines(bufnr)) .. ' chat: ' .. H.chat_text(chat))
    H.eq(expected, H.lines(bufnr), 'buffer')
    H.assert_mirrored(bufnr, 'after the edit')
    H.eq(H.text_of(H.LINES), H.read_file(path), 'disk (the buffer is not saved behind the user)')
  end)

  local op
  H.test(name .. ': the edit is journaled under the agent', function()
    local ops = H.log_ops(ws)
    H.check(#ops >= 1, 'no op in the journal')
    op = ops[#ops]
    H.check(type(op.agent) == 'string' and op.agent:lower():find('gemini', 1, true) ~= nil,
      'agent of the op: ' .. vim.inspect(op))
  end)

  H.test(name .. ': undo restores the line and keeps the typing', function()
    H.check(op ~= nil, 'no op to undo')
    local code, _, out = H.cli_json(ws, { 'undo', tostring(op.op) })
    H.eq(0, code, 'hashline undo (' .. out .. ')')
    local restored = vim.list_extend({ H.TYPED_BEFORE }, vim.deepcopy(H.LINES))
    table.insert(restored, H.TYPED_DURING)
    H.check(H.wait(10000, function() return vim.deep_equal(restored, H.lines(bufnr)) end),
      'buffer after undo: ' .. vim.inspect(H.lines(bufnr)))
  end)

  -- The second prompt: gemini reads a.txt and writes it whole with line 5 changed; the user
  -- changes line 5 while the write's prompt waits.
  H.say(chat, 'Change line 5 of a.txt.')
  H.answer_approval(chat, 2, 'Accept', function()
    local row = H.line_of(bufnr, 'line 5')
    vim.api.nvim_buf_set_lines(bufnr, row - 1, row, true, { LINE5_USER })
    H.assert_mirrored(bufnr, 'the user changes line 5')
  end)
  H.wait_finished(2, 'the second prompt')

  H.test(name .. ': an edit over the typing is refused to the agent, the user text stays', function()
    H.check(H.line_of(bufnr, LINE5_USER) ~= nil and H.line_of(bufnr, LINE5_AGENT) == nil,
      'buffer: ' .. vim.inspect(H.lines(bufnr)))
    local requests = H.model.requests(log)
    local answer = H.model.tool_output(requests, 'write_file', 1) or ''
    H.check(answer:lower():find('error', 1, true) ~= nil, 'what gemini told its model about the refused write: ' .. answer)
    H.check(H.line_of(bufnr, H.TYPED_BEFORE) ~= nil and H.line_of(bufnr, H.TYPED_DURING) ~= nil,
      'typing after the refused write: ' .. vim.inspect(H.lines(bufnr)))
  end)
end)
