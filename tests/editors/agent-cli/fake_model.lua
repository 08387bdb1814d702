-- The scripted model endpoint (fake_model.mjs) from a headless Neovim test: start it with a script
-- of turns, read back the requests it got, and find what an agent sent its model back for a tool
-- call. Used by agent-cli/agent_test.lua and nvim-codecompanion:
--   local model = dofile(ROOT .. '/tests/editors/agent-cli/fake_model.lua')(H)
-- with H the caller's shared helpers (tests/editors/neovim/common.lua), so waits yield to its
-- H.drive coroutine.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h')
return function(H)
  local M = {}

  -- Starts fake_model.mjs with `turns`; returns its job id, port and request log path.
  function M.start(dir, turns)
    vim.fn.mkdir(dir, 'p')
    H.write_file(dir .. '/turns.json', vim.fn.json_encode(turns))
    local port, err = nil, {}
    local log = dir .. '/requests.jsonl'
    local job = vim.fn.jobstart({ 'node', here .. '/fake_model.mjs', '--script', dir .. '/turns.json', '--log', log }, {
      on_stdout = function(_, data)
        for _, line in ipairs(data) do
          port = port or tonumber(line:match('^listening (%d+)'))
        end
      end,
      on_stderr = function(_, data) vim.list_extend(err, data) end,
    })
    H.check(job > 0, 'could not start node fake_model.mjs')
    H.check(H.wait(15000, function() return port ~= nil end), 'the fake model endpoint did not start: ' .. table.concat(err, ' '))
    return job, port, log
  end

  -- The conversation requests the endpoint got: a list of decoded request bodies.
  function M.requests(log)
    local out = {}
    for line in (H.read_file(log) or ''):gmatch('[^\n]+') do
      local entry = vim.fn.json_decode(line)
      if entry.n ~= vim.NIL and entry.n ~= nil then
        table.insert(out, entry.body)
      end
    end
    return out
  end

  -- What the CLI sent the model back for a tool call, or nil. Chat Completions: the `tool` message
  -- answering `call_id`; Messages API: the tool_result block of `call_id`; Responses API: the
  -- function_call_output with `call_id`; Gemini: the n-th functionResponse named `call_id`.
  function M.tool_output(requests, call_id, nth)
    local seen = 0
    for _, body in ipairs(requests) do
      for _, message in ipairs(body.messages or {}) do -- Messages API: tool_result blocks
        if message.role == 'tool' and message.tool_call_id == call_id then -- Chat Completions
          return type(message.content) == 'string' and message.content or vim.fn.json_encode(message.content)
        end
        for _, block in ipairs(type(message.content) == 'table' and message.content or {}) do
          if type(block) == 'table' and block.type == 'tool_result' and block.tool_use_id == call_id then
            if type(block.content) == 'string' then
              return block.content
            end
            local parts = {}
            for _, part in ipairs(block.content or {}) do
              table.insert(parts, part.text or vim.fn.json_encode(part))
            end
            return table.concat(parts)
          end
        end
      end
      for _, item in ipairs(body.input or {}) do
        if item.type == 'function_call_output' and item.call_id == call_id then
          return type(item.output) == 'string' and item.output or vim.fn.json_encode(item.output)
        end
      end
    end
    local last = requests[#requests] or {}
    for _, content in ipairs(last.contents or {}) do
      for _, part in ipairs(content.parts or {}) do
        if type(part) == 'table' and part.functionResponse and part.functionResponse.name == call_id then
          seen = seen + 1
          if seen == (nth or 1) then
            return vim.fn.json_encode(part.functionResponse.response)
          end
        end
      end
    end
  end

  return M
end
