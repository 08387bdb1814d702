-- What every nvim-codecompanion test shares: the real codecompanion.nvim and plenary.nvim from
-- ../shared/vendor on 'runtimepath' (a missing copy raises: the suite fails, it never skips), the
-- scripted model endpoint (agent-cli/fake_model.lua), a workspace with a file open in Neovim and
-- unsaved typing in it, codecompanion set up with the hashline plugin, chats started and driven
-- (an ACP permission request or a tool approval answered through the chat buffer's own keymap,
-- as the user would press it), and the journal read back with `hashline log --json`.
-- Load with dofile; returns H (tests/editors/neovim/common.lua) extended with these helpers.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h')
local H = dofile(assert(os.getenv('REPO_ROOT')) .. '/tests/editors/neovim/common.lua')
H.model = dofile(H.root .. '/tests/editors/agent-cli/fake_model.lua')(H)
H.here = here
H.agent_timeout = tonumber(os.getenv('AGENT_TIMEOUT_MS') or '') or 120000

-- The pinned plugins (see ../shared/vendor/README.md), loaded from there.
H.vendor = os.getenv('CODECOMPANION_VENDOR') or vim.fn.fnamemodify(H.root .. '/../shared/vendor', ':p'):gsub('/$', '')
for _, plugin in ipairs({ 'plenary.nvim', 'codecompanion.nvim' }) do
  local dir = H.vendor .. '/' .. plugin
  if vim.fn.isdirectory(dir .. '/lua') ~= 1 then
    error('the pinned ' .. plugin .. ' is missing at ' .. dir .. ' (see ../shared/vendor/README.md)')
  end
  vim.opt.runtimepath:prepend(dir)
end

vim.o.hidden = true -- the edited file stays loaded, unsaved, while the chat buffer is current

H.LINES = H.numbered_lines(12, 'line ')
H.TYPED_BEFORE = 'typed by the user before asking, not saved'
H.TYPED_DURING = 'typed by the user while the agent waited, not saved'

-- A git workspace WS (H.work/ws) with a.txt (H.LINES) on disk; Neovim's cwd is WS (an ACP agent
-- starts there). Returns ws and the path of a.txt.
function H.workspace()
  local ws = H.work .. '/ws'
  vim.fn.mkdir(ws, 'p')
  vim.fn.system({ 'git', 'init', '-q', ws })
  H.write_file(ws .. '/a.txt', H.text_of(H.LINES))
  vim.cmd('cd ' .. vim.fn.fnameescape(ws))
  return ws, ws .. '/a.txt'
end

-- Sets up the hashline plugin (with `hashline` = its options) and codecompanion (`cc` merged into
-- a config with logging to the work dir).
function H.setup_both(hashline, cc)
  H.setup(hashline)
  vim.env.CODECOMPANION_LOG_DIR = H.work
  local opts = vim.tbl_deep_extend('force', {
    opts = { log_level = 'DEBUG' },
    display = { chat = { window = { layout = 'buffer' } } },
  }, cc or {})
  require('codecompanion').setup(opts)
end

-- Opens `path`, waits for the sidecar to mirror it, types `H.TYPED_BEFORE` as a new first line
-- (unsaved) and waits until the sidecar has it. Returns bufnr.
function H.open_with_typing(path)
  local bufnr = H.open(path)
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, true, { H.TYPED_BEFORE })
  H.assert_mirrored(bufnr, 'typing before the agent')
  return bufnr
end

-- Opens a codecompanion chat on `adapter` (a name in its config); with `prompt`, says it.
-- Every 2 s the chat buffer and the events seen so far go to WORK/progress.txt (a hang's trace).
-- Returns the chat.
function H.chat(adapter, prompt)
  local sessions = H.events.ACPSessionPost or 0
  local chat = H.outside(function()
    return require('codecompanion').chat({ params = { adapter = adapter } })
  end)
  H.check(chat ~= nil, 'codecompanion did not open a chat on ' .. adapter)
  -- An ACP chat connects in the background; a prompt submitted before its session exists makes
  -- codecompanion yield the main thread (attempt to yield across C-call boundary).
  if chat.adapter and chat.adapter.type == 'acp' then
    H.check(H.wait(H.agent_timeout, function() return (H.events.ACPSessionPost or 0) > sessions end),
      'the ACP agent never got a session: ' .. H.chat_text(chat))
  end
  local timer = H.compat.uv.new_timer()
  timer:start(2000, 2000, vim.schedule_wrap(function()
    H.write_file(H.work .. '/progress.txt', os.date('%H:%M:%S') .. ' events ' .. vim.inspect(H.events) .. '\n'
      .. H.chat_text(chat) .. '\n')
  end))
  if prompt then
    H.say(chat, prompt)
  end
  return chat
end

-- Types `text` as the user's message in the chat buffer and submits it (as <CR> in the chat
-- would: codecompanion parses the buffer, so `@{tool}` tags take effect).
function H.say(chat, text)
  H.outside(function()
    chat:add_buf_message({ role = 'user', content = text })
    chat:submit()
  end)
end

-- Runs fn() from the main loop, outside the test's coroutine (codecompanion yields a coroutine it
-- is called from, expecting its own async runner to resume it), and waits for its result.
function H.outside(fn)
  local done, result, err = false, nil, nil
  vim.schedule(function()
    local ok, value = pcall(fn)
    done, result, err = true, ok and value or nil, not ok and value or nil
  end)
  H.check(H.wait(H.agent_timeout, function() return done end), 'codecompanion did not return')
  if err then
    error(err, 2)
  end
  return result
end

-- Counts codecompanion's User events by name (ToolApprovalRequested, RequestFinished, ...).
H.events = {}
vim.api.nvim_create_autocmd('User', {
  pattern = 'CodeCompanion*',
  callback = function(args)
    local name = args.match:gsub('^CodeCompanion', '')
    H.events[name] = (H.events[name] or 0) + 1
  end,
})

-- Waits for the n-th approval request in the chat (an ACP session/request_permission, or one of
-- codecompanion's own tool approvals), runs `before()` if given (the user keeps typing while the
-- prompt waits), then presses the choice labelled `label` ('Accept', 'Reject', ...) through the
-- chat buffer's own keymap.
function H.answer_approval(chat, n, label, before)
  H.check(H.wait(H.agent_timeout, function()
    return (H.events.ToolApprovalRequested or 0) >= n
  end), 'no approval request #' .. n .. ' in the chat: ' .. H.chat_text(chat))
  if before then
    before()
  end
  local pressed = false
  for _, map in ipairs(vim.api.nvim_buf_get_keymap(chat.bufnr, 'n')) do
    if map.desc == label and map.callback then
      H.outside(map.callback)
      pressed = true
      break
    end
  end
  H.check(pressed, 'the approval prompt has no choice ' .. label .. ': ' .. H.chat_text(chat))
end

-- The first prompt of the ACP tests: opens a chat on `adapter` saying `prompt`, and when the agent
-- asks before its write, types H.TYPED_DURING as a new last line of `bufnr` (unsaved), then
-- accepts; waits until the prompt finished. Returns the chat and the buffer's lines the agent's
-- change to line 3 (`line3`) should leave: both typed lines around it.
function H.prompt_while_typing(adapter, prompt, bufnr, line3)
  local chat = H.chat(adapter, prompt)
  H.answer_approval(chat, 1, 'Accept', function()
    vim.api.nvim_buf_set_lines(bufnr, -1, -1, true, { H.TYPED_DURING })
    H.assert_mirrored(bufnr, 'typing while the prompt waits')
  end)
  H.wait_finished(1, 'the first prompt')
  local expected = vim.list_extend({ H.TYPED_BEFORE }, H.with_line(3, line3))
  table.insert(expected, H.TYPED_DURING)
  return chat, expected
end

-- Waits until the chat's request finished (codecompanion fires RequestFinished per request;
-- `count` of them, default 1).
function H.wait_finished(count, what)
  H.check(H.wait(H.agent_timeout, function()
    return (H.events.RequestFinished or 0) >= (count or 1)
  end), (what or 'the chat') .. ' did not finish')
end

-- The chat buffer's text (for failure messages).
function H.chat_text(chat)
  if not chat or not vim.api.nvim_buf_is_valid(chat.bufnr) then
    return '(no chat buffer)'
  end
  return table.concat(vim.api.nvim_buf_get_lines(chat.bufnr, 0, -1, false), '\n'):sub(-1500)
end

-- The text of `:checkhealth hashline` (the report buffer, then closed).
function H.checkhealth()
  return H.outside(function()
    vim.cmd('checkhealth hashline')
    local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    vim.cmd('bwipeout!')
    return text
  end)
end

-- The journal's ops for the workspace (`hashline log --json`), oldest first.
function H.log_ops(ws)
  local code, log, out = H.cli_json(ws, { 'log' })
  H.eq(0, code, 'hashline log exit (' .. out .. ')')
  return log.ops or {}
end

-- A private HOME for the agents (their config files), with Gemini CLI set to API-key auth and
-- no folder-trust prompt, and Claude Code's config dir seeded so no dialog blocks it. Sets the
-- environment the agents inherit from Neovim (codecompanion starts them with it). Returns home.
function H.agent_home(ws, port)
  local home = H.work .. '/home'
  H.write_file(home .. '/.gemini/settings.json', vim.json.encode({
    security = { auth = { selectedType = 'gemini-api-key' }, folderTrust = { enabled = false } },
  }))
  local claude = home .. '/claude-config'
  H.write_file(claude .. '/.claude.json', vim.json.encode({
    hasCompletedOnboarding = true,
    customApiKeyResponses = { approved = { 'sk-ant-fake-key-0123456789' }, rejected = {} },
    projects = { [ws] = { hasTrustDialogAccepted = true } },
  }))
  -- Claude Code's default mode asks the model a safety question before MCP tools, which a scripted
  -- model cannot answer; "default" asks the client (session/request_permission) instead.
  H.write_file(claude .. '/settings.json', vim.json.encode({ permissions = { defaultMode = 'default' } }))
  local url = string.format('http://127.0.0.1:%d', port)
  local env = {
    HOME = home,
    GOOGLE_GEMINI_BASE_URL = url,
    GEMINI_API_KEY = 'fake-key',
    ANTHROPIC_BASE_URL = url,
    ANTHROPIC_API_KEY = 'sk-ant-fake-key-0123456789',
    CLAUDE_CONFIG_DIR = claude,
    IS_SANDBOX = '1',
    DISABLE_TELEMETRY = '1',
    DISABLE_AUTOUPDATER = '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1',
    NO_COLOR = '1',
  }
  for name, value in pairs(env) do
    vim.env[name] = value
  end
  return home
end

-- The buffer's lines with the typing taken out (what the agent's change did to the file).
function H.without_typing(bufnr)
  local out = {}
  for _, line in ipairs(H.lines(bufnr)) do
    if line ~= H.TYPED_BEFORE and line ~= H.TYPED_DURING then
      table.insert(out, line)
    end
  end
  return out
end

-- H.LINES with line i replaced by `text`.
function H.with_line(i, text)
  local out = vim.deepcopy(H.LINES)
  out[i] = text
  return out
end

return H
