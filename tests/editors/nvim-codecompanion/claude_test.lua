-- Claude Code through ACP (@agentclientprotocol/claude-agent-acp, npm, pinned), started by
-- codecompanion.nvim's claude_code adapter, which the hashline plugin wraps with no configuration
-- (`hashline acp -- node claude-agent-acp`), against the scripted Anthropic endpoint. Claude Code
-- reads and writes the disk itself (it uses no fs/*); it asks the client before its Edit
-- (session/request_permission), and the user types a line while that prompt waits.
--   1. its write is merged into the buffer with both typed lines kept (disk: the agent's change,
--      no typing);
--   2. the model's first request lists hashline's tools (the MCP server the proxy added to
--      session/new);
--   3. the merge is journaled under Claude's name, not `disk`.
-- PROXY=0 (AGENTS=claude-control, not in the default run): setup{ codecompanion = false }; the
-- reconciler still merges Claude Code's disk write (1), but the model is offered no hashline tool
-- and the journal names the agent `disk`.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')
local proxy = os.getenv('PROXY') ~= '0'
local name = proxy and 'claude' or 'claude-control'
local CLAUDE_ACP = assert(os.getenv('CLAUDE_ACP_BIN'), 'CLAUDE_ACP_BIN not set')
local LINE3_NEW = 'line 3, changed by claude'

H.drive(function()
  local ws, path = H.workspace()
  local _, port, log = H.model.start(H.work .. '/model', {
    { { call = 'Read', arguments = { file_path = path } } },
    { { call = 'Edit', arguments = { file_path = path, old_string = 'line 3\n', new_string = LINE3_NEW .. '\n' } } },
    { { text = 'Changed line 3.' } },
  })
  H.agent_home(ws, port)
  H.setup_both({ codecompanion = proxy }, {
    adapters = { acp = { claude_code = function()
      local adapter = require('codecompanion.adapters').extend('claude_code', {
        commands = { default = { 'node', CLAUDE_ACP } },
        defaults = { timeout = 60000 },
      })
      -- codecompanion would pass the literal "CLAUDE_CODE_OAUTH_TOKEN" as that variable when it is
      -- unset; the endpoint takes ANTHROPIC_API_KEY from the environment instead.
      adapter.env = {}
      adapter.handlers.auth = function()
        return true
      end
      return adapter
    end } },
  })
  local bufnr = H.open_with_typing(path)
  local chat, expected = H.prompt_while_typing('claude_code', 'Change line 3 of a.txt.', bufnr, LINE3_NEW)

  H.test(name .. ': its write is merged with the typing kept', function()
    H.check(H.wait(20000, function() return vim.deep_equal(expected, H.lines(bufnr)) end),
      'buffer: ' .. vim.inspect(H.lines(bufnr)) .. ' chat: ' .. H.chat_text(chat))
    H.eq(H.text_of(H.with_line(3, LINE3_NEW)), H.read_file(path), 'disk (the agent wrote it)')
    H.assert_mirrored(bufnr, 'after the merge')
  end)

  H.test(name .. (proxy and ": the model's first request lists hashline's tools" or ': no hashline tool offered'), function()
    local requests = H.model.requests(log)
    H.check(requests[1] and (vim.json.encode(requests[1]):find('hashline_read', 1, true) ~= nil) == proxy,
      'first request tools: ' .. vim.inspect(vim.tbl_map(function(tool) return tool.name end,
        requests[1] and requests[1].tools or {})))
  end)

  H.test(name .. (proxy and ": the merge is journaled under Claude's name" or ': the merge is journaled as disk'), function()
    local ops = H.log_ops(ws)
    H.check(#ops >= 1, 'no op in the journal')
    local agent = tostring(ops[#ops].agent)
    local named = agent ~= 'disk' and agent:lower():find('claude', 1, true) ~= nil
    H.check(named == proxy and (proxy or agent == 'disk'), 'agent of the op: ' .. vim.inspect(ops[#ops]))
  end)
end)
