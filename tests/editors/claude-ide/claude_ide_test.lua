-- The real Claude Code CLI (interactive, under a pty: `claude -p` never connects to an IDE) uses
-- hashline as its IDE (issue 22). Headless Neovim holds a.txt open with an unsaved line typed on
-- top; the plugin starts `hashline lsp` with claudeIde on. drive_claude.py types a prompt into
-- Claude Code's input box; the scripted model (tests/editors/agent-cli/fake_model.mjs) answers with
-- Read a.txt, Edit of line 10, Edit of line 20. Claude Code sends each Edit to the IDE as openDiff;
-- hashline makes it a pending review in the buffer; the user accepts the first (:HashlineAccept on
-- the hunk) and rejects the second (:HashlineReject). Checks: the connection (sidecar log, the IDE
-- tools in the model's requests), the review, the accepted text in the buffer with the typing kept,
-- one journaled op by claude-code, Claude Code's own write equal to the buffer (no second op, no
-- conflict), the rejected edit leaving buffer and disk alone and Claude Code telling its model so,
-- and the user's :write afterwards asking nothing (the sidecar told Neovim that Claude Code's write
-- equals the buffer). Then (issue 30) Edits of files not open in Neovim (b.txt rejected, c.txt
-- accepted: Neovim shows each, the review happens there) and two Edits over the user's unsaved
-- typing in a.txt (a conflict: Claude's line shown in place of the user's; keep theirs + Accept
-- answers FILE_SAVED with exactly the user's text; take Claude's + Reject answers DIFF_REJECTED).
-- The user's pick at hashline's Accept / Reject question (window/showMessageRequest) is given to
-- Neovim's own handler through vim.ui.select (0.10+) or inputlist (0.7). With CAPTURE set, Claude Code talks to hashline through ws_capture.py, which
-- logs every message. Writes PASS / FAIL / NOTE lines to $RESULTS (common.lua), then quits.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local H = dofile(here .. '/../neovim/common.lua')
local claude_bin = assert(os.getenv('CLAUDE_BIN'), 'CLAUDE_BIN not set')
local fake_model = assert(os.getenv('FAKE_MODEL'), 'FAKE_MODEL not set')
local timeout_ms = tonumber(os.getenv('CLAUDE_TIMEOUT_MS') or '') or 300000
local capture = os.getenv('CAPTURE') == '1'
H.note('claude ' .. (os.getenv('CLAUDE_VERSION') or '(version unknown)'))
-- The default permission mode: Claude Code shows an Edit to the IDE (openDiff) only when it asks
-- the user's permission for it; with --dangerously-skip-permissions (or the "auto" mode 2.1.332
-- starts in without --permission-mode) it writes the file without asking the IDE at all.
local permission_args = vim.split(os.getenv('CLAUDE_PERMISSION_ARGS') or '--permission-mode default', ' ', { trimempty = true })
vim.o.hidden = true

local KEY = 'sk-ant-fake-key-0123456789'
local LINES = {}
for i = 1, 30 do
  LINES[i] = string.format('line %02d of a.txt', i)
end
local TYPED = 'typed by the user, not saved'
local EDIT1_OLD, EDIT1_NEW = LINES[10], LINES[10] .. ', changed by Claude (accepted)'
local EDIT2_OLD, EDIT2_NEW = LINES[20], LINES[20] .. ', changed by Claude (rejected)'
-- Files no Neovim window holds when Claude Code edits them.
local B_LINES = { 'b line 1', 'b line 2', 'b line 3' }
local C_LINES = { 'c line 1', 'c line 2', 'c line 3' }
local B_NEW, C_NEW = 'b line 2, changed by Claude (rejected)', 'c line 2, changed by Claude (accepted)'
-- Lines the user types over (unsaved) right before Claude Code edits the same lines.
local USER5, CLAUDE5 = 'line 04 rewritten by the user, unsaved', LINES[4] .. ', changed by Claude (conflict)'
local USER6, CLAUDE6 = 'line 05 rewritten by the user, unsaved', LINES[5] .. ', changed by Claude (conflict)'
local text_of = H.text_of
local function with(lines, i, text)
  local out = vim.deepcopy(lines)
  out[i] = text
  return out
end
local function typed_plus(lines)
  local out = { TYPED }
  vim.list_extend(out, lines)
  return out
end

local ws = H.work .. '/ws'
local home = H.work .. '/home'
local config_dir = home .. '/claude-config'
local sidecar_log = H.work .. '/sidecar.log'
local requests_log = H.work .. '/requests.jsonl'

local function test(name, fn)
  return H.test('claude-ide: ' .. name, fn)
end

local function json_lines(path)
  local out = {}
  for line in (H.read_file(path) or ''):gmatch('[^\n]+') do
    local ok, entry = pcall(vim.fn.json_decode, line)
    if ok then
      table.insert(out, entry)
    end
  end
  return out
end

-- The conversation requests Claude Code sent the model (the ones that got a turn).
local function model_requests()
  local out = {}
  for _, entry in ipairs(json_lines(requests_log)) do
    if type(entry.n) == 'number' then
      table.insert(out, entry.body)
    end
  end
  return out
end

-- The tool_result block Claude Code sent back for `id`, or nil.
local function tool_result(id)
  for _, body in ipairs(model_requests()) do
    for _, message in ipairs(body.messages or {}) do
      for _, block in ipairs(type(message.content) == 'table' and message.content or {}) do
        if type(block) == 'table' and block.type == 'tool_result' and block.tool_use_id == id then
          local text = block.content
          if type(text) == 'table' then
            local parts = {}
            for _, part in ipairs(text) do
              table.insert(parts, part.text or vim.fn.json_encode(part))
            end
            text = table.concat(parts)
          end
          return tostring(text), block.is_error == true
        end
      end
    end
  end
end

-- `hashline ARGS --json` in the workspace: its result; fails unless it exits 0.
local function cli_json(args)
  local code, result, raw = H.cli_json(ws, args)
  H.eq(0, code, 'hashline ' .. table.concat(args, ' ') .. ' --json (' .. raw .. ')')
  return result, raw
end

local function pending_hunks(file)
  local result = cli_json({ 'pending', '--path', file or 'a.txt' })
  local hunks = {}
  for _, file in ipairs(result.files or {}) do
    for _, hunk in ipairs(file.hunks or {}) do
      table.insert(hunks, hunk)
    end
  end
  return hunks
end

local function ops_by(agent)
  local log = cli_json({ 'log' })
  return vim.tbl_filter(function(op) return op.agent == agent end, log.ops or {}), log
end

-- Claude Code's config dir, seeded so no dialog blocks the interactive TUI.
local function seed_claude_config()
  vim.fn.mkdir(config_dir, 'p')
  local projects = {}
  projects[ws] = { hasTrustDialogAccepted = true, hasCompletedProjectOnboarding = true }
  H.write_file(config_dir .. '/.claude.json', vim.fn.json_encode({
    hasCompletedOnboarding = true,
    bypassPermissionsModeAccepted = true,
    customApiKeyResponses = { approved = { KEY:sub(-20), KEY }, rejected = {} },
    projects = projects,
  }))
end

local function start_job(cmd, opts)
  local job = vim.fn.jobstart(cmd, opts)
  H.check(job > 0, 'could not start ' .. cmd[1])
  return job
end

local bufnr, port, model_job, driver_job, capture_job
local driver_code, driver_err = nil, {}

local ready = test('a.txt open in Neovim (claudeIde on) with unsaved typing; the sidecar writes its lock file', function()
  vim.fn.mkdir(ws, 'p')
  vim.fn.system({ 'git', 'init', '-q', ws })
  H.write_file(ws .. '/a.txt', text_of(LINES))
  H.write_file(ws .. '/b.txt', text_of(B_LINES))
  H.write_file(ws .. '/c.txt', text_of(C_LINES))
  seed_claude_config()
  vim.env.CLAUDE_CONFIG_DIR = config_dir -- the sidecar writes $CLAUDE_CONFIG_DIR/ide/<port>.lock
  vim.cmd('cd ' .. vim.fn.fnameescape(ws))
  require('hashline').setup({
    cmd = { H.bin, 'lsp', '--log-file', sidecar_log, '--log-level', 'debug' },
    init_options = { claudeIde = true },
    debounce = 0,
    timeout = 20000,
  })
  bufnr = H.open(ws .. '/a.txt')
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, true, { TYPED })
  H.assert_mirrored(bufnr, 'a.txt')
  local code, out, err
  H.check(H.wait(10000, function()
    code, out, err = H.cli(ws, { 'claude', '--print-env' })
    return code == 0
  end), 'hashline claude --print-env: ' .. tostring(code) .. ' ' .. tostring(out) .. ' ' .. tostring(err))
  port = tonumber(out:match('CLAUDE_CODE_SSE_PORT=["\']?(%d+)'))
  H.check(port, 'no port in hashline claude --print-env: ' .. out)
  H.check(out:find('ENABLE_IDE_INTEGRATION=["\']?true'), 'print-env sets ENABLE_IDE_INTEGRATION: ' .. out)
  local lock = vim.fn.json_decode(H.read_file(config_dir .. '/ide/' .. port .. '.lock') or 'null')
  H.check(type(lock) == 'table' and lock.ideName == 'hashline', 'lock file ' .. port .. '.lock: ' .. vim.inspect(lock))
  H.eq({ ws }, lock.workspaceFolders, 'lock file workspaceFolders')
  if capture then -- a recording relay on its own port, announced with the same token
    local relay_port
    capture_job = start_job({ 'python3', here .. '/ws_capture.py', '--upstream', tostring(port), '--log', H.work .. '/ws.jsonl' }, {
      on_stdout = function(_, data)
        for _, line in ipairs(data) do
          relay_port = relay_port or tonumber(line:match('^listening (%d+)'))
        end
      end,
    })
    H.check(H.wait(10000, function() return relay_port ~= nil end), 'ws_capture.py did not start')
    H.write_file(config_dir .. '/ide/' .. relay_port .. '.lock', H.read_file(config_dir .. '/ide/' .. port .. '.lock'))
    port = relay_port
  end
end)

-- Three prompts: Read + the accepted Edit (then a message), the rejected Edit (rejecting ends
-- Claude Code's turn), and a question whose request carries the rejected Edit's tool_result.
local turns = {
  { { call = 'Read', arguments = { file_path = ws .. '/a.txt' } } },
  { { call = 'Edit', arguments = { file_path = ws .. '/a.txt', old_string = EDIT1_OLD, new_string = EDIT1_NEW } } },
  { { text = 'Changed line 10.' } },
  { { call = 'Edit', arguments = { file_path = ws .. '/a.txt', old_string = EDIT2_OLD, new_string = EDIT2_NEW } } },
  { { text = 'Understood, I left line 20 alone.' } },
  -- 6-7: b.txt, not open in Neovim, rejected (ends the turn)
  { { call = 'Read', arguments = { file_path = ws .. '/b.txt' } } },
  { { call = 'Edit', arguments = { file_path = ws .. '/b.txt', old_string = B_LINES[2], new_string = B_NEW } } },
  -- 8-10: c.txt, not open in Neovim, accepted
  { { call = 'Read', arguments = { file_path = ws .. '/c.txt' } } },
  { { call = 'Edit', arguments = { file_path = ws .. '/c.txt', old_string = C_LINES[2], new_string = C_NEW } } },
  { { text = 'Changed c.txt.' } },
  -- 11-13: a.txt line 5, which the user typed over: the user keeps theirs and accepts
  { { call = 'Read', arguments = { file_path = ws .. '/a.txt' } } },
  { { call = 'Edit', arguments = { file_path = ws .. '/a.txt', old_string = LINES[4], new_string = CLAUDE5 } } },
  { { text = 'Changed line 5.' } },
  -- 14-15: a.txt line 6, typed over again: the user takes Claude's line, then rejects the edit
  { { call = 'Read', arguments = { file_path = ws .. '/a.txt' } } },
  { { call = 'Edit', arguments = { file_path = ws .. '/a.txt', old_string = LINES[5], new_string = CLAUDE6 } } },
  -- 16: the rejected Edit's tool_result reaches the model
  { { text = 'Understood.' } },
}
local go_file_2, go_file_3 = H.work .. '/go-step-2', H.work .. '/go-step-3'
local go_file = {}
for i = 4, 8 do
  go_file[i] = H.work .. '/go-step-' .. i
end

local connected = ready and test('the interactive Claude Code connects to hashline as its IDE', function()
  H.write_file(H.work .. '/turns.json', vim.fn.json_encode(turns))
  local model_port
  model_job = start_job({ 'node', fake_model, '--script', H.work .. '/turns.json', '--log', requests_log }, {
    on_stdout = function(_, data)
      for _, line in ipairs(data) do
        model_port = model_port or tonumber(line:match('^listening (%d+)'))
      end
    end,
  })
  H.check(H.wait(15000, function() return model_port ~= nil end), 'the fake model did not start')
  H.write_file(H.work .. '/steps.json', vim.fn.json_encode({
    { prompt = 'Change line 10 of a.txt.', until_turn = 3 },
    { wait_file = go_file_2, prompt = 'Now change line 20.', until_turn = 4 },
    { wait_file = go_file_3, prompt = 'Why did you stop?', until_turn = 5 },
    { wait_file = go_file[4], prompt = 'Change line 2 of b.txt.', until_turn = 7 },
    { wait_file = go_file[5], prompt = 'Then change line 2 of c.txt.', until_turn = 10 },
    { wait_file = go_file[6], prompt = 'Change line 5 of a.txt.', until_turn = 13 },
    { wait_file = go_file[7], prompt = 'Change line 6 of a.txt.', until_turn = 15 },
    { wait_file = go_file[8], prompt = 'Why did you stop again?', until_turn = 16 },
  }))
  local cmd = { 'python3', here .. '/drive_claude.py', '--steps', H.work .. '/steps.json', '--log', requests_log,
    '--transcript', H.work .. '/tty.out', '--timeout', tostring(timeout_ms / 1000), '--', claude_bin, '--model', 'fake-model' }
  vim.list_extend(cmd, permission_args)
  driver_job = start_job(cmd, {
    cwd = ws,
    env = {
      HOME = home, CLAUDE_CONFIG_DIR = config_dir, IS_SANDBOX = '1',
      CLAUDE_CODE_SSE_PORT = tostring(port), ENABLE_IDE_INTEGRATION = 'true',
      ANTHROPIC_BASE_URL = string.format('http://127.0.0.1:%d', model_port), ANTHROPIC_API_KEY = KEY,
      DISABLE_TELEMETRY = '1', DISABLE_AUTOUPDATER = '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1',
    },
    on_stderr = function(_, data) vim.list_extend(driver_err, data) end,
    on_exit = function(_, c) driver_code = c end,
  })
  H.check(H.wait(60000, function()
    return (H.read_file(sidecar_log) or ''):find('Claude Code connected', 1, true) ~= nil or driver_code ~= nil
  end), 'no "Claude Code connected" in the sidecar log within 60 s')
  H.check((H.read_file(sidecar_log) or ''):find('Claude Code connected', 1, true),
    'Claude Code exited before connecting: ' .. table.concat(driver_err, ' '))
  H.check(H.wait(60000, function() return #model_requests() >= 1 or driver_code ~= nil end), 'no model request')
  local first = vim.fn.json_encode(model_requests()[1] or {})
  H.check(first:find('mcp__ide__getDiagnostics', 1, true), 'the first model request does not name mcp__ide__getDiagnostics')
end)

-- The ops with a pending hunk in `file` now, as a set.
local function pending_ops(file)
  local ops = {}
  for _, hunk in ipairs(pending_hunks(file)) do
    ops[hunk.op] = true
  end
  return ops
end

-- Waits for a pending hunk (in `file`, default a.txt) of an op other than `seen` (an op id or a
-- set of them); returns it.
local function wait_hunk(seen, file)
  local found
  H.check(H.wait(timeout_ms, function()
    for _, hunk in ipairs(pending_hunks(file)) do
      if hunk.op ~= seen and not (type(seen) == 'table' and seen[hunk.op]) then
        found = hunk
        return true
      end
    end
    return driver_code ~= nil
  end), 'no pending hunk')
  H.check(found, 'Claude Code exited without an openDiff review: ' .. table.concat(driver_err, ' '))
  return found
end

local accepted_op
local reviewed = connected and test("Claude's first Edit becomes a pending hashline review in the live buffer", function()
  local hunk = wait_hunk(nil)
  accepted_op = hunk.op
  H.eq(11, hunk.line, 'the hunk line (line 10 under the typed line)')
  local want = typed_plus(with(LINES, 10, EDIT1_NEW))
  H.eq(want, H.lines(bufnr), 'buffer while the review is pending')
  H.eq(text_of(LINES), H.read_file(ws .. '/a.txt'), 'disk while the review is pending')
  local review = require('hashline.review').pending({ bufnr = bufnr })
  H.check(type(review) == 'table' and (review.count or 0) >= 1, 'the plugin sees the pending hunk: ' .. vim.inspect(review))
end)

local landed = reviewed and test('accepted (:HashlineAccept on the hunk): the change lands, typing kept, one claude-code op; Claude Code writes the buffer text', function()
  vim.api.nvim_win_set_cursor(0, { 11, 0 })
  vim.cmd('HashlineAccept')
  local want = typed_plus(with(LINES, 10, EDIT1_NEW))
  H.check(H.wait(timeout_ms, function() return H.read_file(ws .. '/a.txt') == text_of(want) or driver_code ~= nil end),
    'disk after accept: ' .. vim.inspect(H.read_file(ws .. '/a.txt')))
  H.eq(text_of(want), H.read_file(ws .. '/a.txt'), "disk after Claude Code's write (the buffer's text, typing included)")
  H.eq(want, H.lines(bufnr), 'buffer after accept')
  vim.wait(1500) -- let the reconciler look at Claude Code's write
  H.eq(want, H.lines(bufnr), 'buffer after Claude Code wrote it')
  H.assert_mirrored(bufnr, 'a.txt')
  local ops, log = ops_by('claude-code')
  H.eq(1, #ops, 'ops by claude-code: ' .. vim.fn.json_encode(log))
  H.eq(0, #ops_by('disk'), 'reconcile ops (Claude Code\'s write taken for a foreign change): ' .. vim.fn.json_encode(log))
  H.eq(1, #(log.ops or {}), 'journaled ops in all: ' .. vim.fn.json_encode(log))
  local conflicts = cli_json({ 'conflicts' })
  H.eq(0, #(conflicts.conflicts or {}), 'open conflicts: ' .. vim.fn.json_encode(conflicts))
  local result, is_error = tool_result('toolu_1_0')
  H.check(H.wait(20000, function()
    result, is_error = tool_result('toolu_1_0')
    return result ~= nil
  end), 'no tool_result for the first Edit in the model requests')
  H.check(not is_error, 'the first Edit failed: ' .. result)
  H.note('Edit 1 tool_result Claude Code sent the model: ' .. result:sub(1, 300))
  H.eq(want, H.lines(bufnr), 'buffer at the end of the first prompt')
  H.eq(text_of(want), H.read_file(ws .. '/a.txt'), 'disk at the end of the first prompt')
  -- The disk now holds the buffer's text: the sidecar says so (hashline/reconciled, bufferMatchesDisk)
  -- and the plugin clears 'modified'.
  H.check(H.wait(5000, function() return not vim.bo[bufnr].modified end),
    "a.txt still 'modified' although Claude Code wrote exactly its text")
end)

local rejected = landed and test('the second Edit, rejected (:HashlineReject): buffer and disk unchanged, Claude Code tells its model', function()
  H.write_file(go_file_2, 'go')
  local hunk = wait_hunk(accepted_op)
  local before = typed_plus(with(LINES, 10, EDIT1_NEW))
  H.eq(21, hunk.line, 'the second hunk line')
  H.eq(with(before, 21, EDIT2_NEW), H.lines(bufnr), 'buffer while the second review is pending')
  vim.api.nvim_win_set_cursor(0, { 21, 0 })
  vim.cmd('HashlineReject')
  H.check(H.wait(5000, function() return vim.deep_equal(before, H.lines(bufnr)) end),
    'buffer after reject: ' .. vim.inspect(H.lines(bufnr)))
  vim.wait(1000)
  H.eq(before, H.lines(bufnr), 'buffer after reject, a second later')
  H.eq(text_of(before), H.read_file(ws .. '/a.txt'), 'disk after reject')
  H.write_file(go_file_3, 'go')
  H.check(H.wait(timeout_ms, function() return tool_result('toolu_3_0') ~= nil or driver_code ~= nil end),
    "Claude Code did not send the rejected Edit's tool_result: " .. table.concat(driver_err, ' '))
  H.eq(before, H.lines(bufnr), 'buffer at the end')
  H.eq(text_of(before), H.read_file(ws .. '/a.txt'), 'disk at the end')
  local result, is_error = tool_result('toolu_3_0')
  H.check(result, 'no tool_result for the second Edit in the model requests (driver: ' .. table.concat(driver_err, ' ') .. ')')
  H.note('Edit 2 tool_result Claude Code sent the model (is_error ' .. tostring(is_error) .. '): ' .. result:sub(1, 300))
  H.check(is_error and result:lower():find('reject', 1, true), 'the second Edit is reported rejected: ' .. result)
  local ops, log = ops_by('claude-code')
  H.eq(2, #ops, 'openDiff ops by claude-code: ' .. vim.fn.json_encode(log))
  H.check(ops[1].inEffect and ops[1].hunks[1].state == 'accepted', 'the first op accepted, in effect: ' .. vim.fn.json_encode(ops[1]))
  H.check(not ops[2].inEffect and ops[2].hunks[1].state == 'reverted', 'the second op reverted: ' .. vim.fn.json_encode(ops[2]))
  H.eq(0, #ops_by('disk'), 'reconcile ops at the end: ' .. vim.fn.json_encode(log))
  local conflicts = cli_json({ 'conflicts' })
  H.eq(0, #(conflicts.conflicts or {}), 'open conflicts at the end: ' .. vim.fn.json_encode(conflicts))
end)

-- Claude Code wrote the buffer's text to disk behind Neovim: the user's own :write afterwards must
-- not be taken for writing over a foreign change ("The file has been changed since reading it").
-- The reconciler answers such a write (exactly the buffer's text) with hashline/reconciled
-- (merged, 0 hunks, bufferMatchesDisk), so the plugin takes the file's new timestamp.
local saved = false
if rejected then
  saved = test("the user's :write afterwards: no \"changed since reading\" prompt, nothing journaled", function()
    local want = typed_plus(with(LINES, 10, EDIT1_NEW))
    local before = #(cli_json({ 'log' }).ops or {})
    local writing, prompted = true, false
    local watchdog = H.compat.uv.new_timer()
    watchdog:start(5000, 0, function()
      if writing then
        prompted = true
        vim.api.nvim_input('n')
      end
    end)
    local ok, err = pcall(vim.api.nvim_buf_call, bufnr, function() vim.cmd('silent write') end)
    writing = false
    watchdog:close()
    H.check(not prompted, ':write asked "the file has been changed since reading it" (Neovim was not told that Claude Code wrote the buffer\'s text)')
    H.check(ok, ':write failed: ' .. tostring(err))
    H.eq(text_of(want), H.read_file(ws .. '/a.txt'), 'disk after :write')
    H.check(not vim.bo[bufnr].modified, 'a.txt not modified after :write')
    vim.wait(1500)
    H.eq(before, #(cli_json({ 'log' }).ops or {}), 'journaled ops after the save')
    H.eq(want, H.lines(bufnr), 'buffer after the save')
  end)
end

-- Issue 30: hashline's Accept / Reject question (window/showMessageRequest) goes through Neovim's
-- own handler, which asks with vim.ui.select (0.10+, in a coroutine) or inputlist (0.7): the
-- user's pick is `question_answer`; the questions asked are kept.
local question_answer, questions = nil, {}
vim.ui.select = function(items, opts, on_choice)
  table.insert(questions, opts and opts.prompt or '')
  for _, item in ipairs(items) do
    if type(item) == 'table' and item.title == question_answer then
      return on_choice(item)
    end
  end
  on_choice(nil)
end
vim.fn.inputlist = function(lines)
  table.insert(questions, lines[1] or '')
  for i = 3, #lines do
    if lines[i]:match('^%d+%. (.*)$') == question_answer then
      return i - 2
    end
  end
  return 0
end

local function wait_tool_result(id, what)
  H.check(H.wait(timeout_ms, function() return tool_result(id) ~= nil or driver_code ~= nil end),
    'no tool_result for ' .. what .. ' in the model requests (driver: ' .. table.concat(driver_err, ' ') .. ')')
  return tool_result(id)
end

local b_rejected = saved and test('a file not open in Neovim (b.txt): Neovim shows it and the Edit is a review there; :HashlineReject leaves the disk alone and Claude Code reports the rejection', function()
  H.eq(0, vim.fn.bufloaded(ws .. '/b.txt'), 'b.txt loaded before Claude Code edits it')
  H.write_file(go_file[4], 'go')
  local hunk = wait_hunk(pending_ops('b.txt'), 'b.txt')
  local bbuf = vim.fn.bufnr(ws .. '/b.txt')
  H.check(bbuf > 0 and vim.api.nvim_get_current_buf() == bbuf, 'Neovim does not show b.txt')
  H.eq(2, hunk.line, 'the hunk line in b.txt')
  H.eq(with(B_LINES, 2, B_NEW), H.lines(bbuf), 'b.txt while the review is pending')
  H.eq(text_of(B_LINES), H.read_file(ws .. '/b.txt'), 'b.txt on disk while the review is pending')
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.cmd('HashlineReject')
  H.check(H.wait(5000, function() return vim.deep_equal(B_LINES, H.lines(bbuf)) end), 'b.txt after reject: ' .. vim.inspect(H.lines(bbuf)))
  -- Rejecting ends Claude Code's turn; its tool_result goes with the next prompt's request.
  H.write_file(go_file[5], 'go')
  local result, is_error = wait_tool_result('toolu_6_0', 'the Edit of b.txt')
  H.note('b.txt Edit tool_result (is_error ' .. tostring(is_error) .. '): ' .. result:sub(1, 200))
  H.check(is_error and result:lower():find('reject', 1, true), 'the Edit of b.txt is reported rejected: ' .. result)
  H.eq(B_LINES, H.lines(bbuf), 'b.txt buffer at the end')
  H.eq(text_of(B_LINES), H.read_file(ws .. '/b.txt'), 'b.txt on disk at the end')
end)

local c_accepted = b_rejected and test('a file not open in Neovim (c.txt): shown, reviewed, nothing written before :HashlineAccept; then Claude Code writes it', function()
  local hunk = wait_hunk(pending_ops('c.txt'), 'c.txt')
  local cbuf = vim.fn.bufnr(ws .. '/c.txt')
  H.check(cbuf > 0 and vim.api.nvim_get_current_buf() == cbuf, 'Neovim does not show c.txt')
  H.eq(2, hunk.line, 'the hunk line in c.txt')
  local want = with(C_LINES, 2, C_NEW)
  H.eq(want, H.lines(cbuf), 'c.txt while the review is pending')
  H.eq(text_of(C_LINES), H.read_file(ws .. '/c.txt'), 'c.txt on disk while the review is pending')
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.cmd('HashlineAccept')
  H.check(H.wait(timeout_ms, function() return H.read_file(ws .. '/c.txt') == text_of(want) or driver_code ~= nil end),
    'c.txt on disk after accept: ' .. vim.inspect(H.read_file(ws .. '/c.txt')))
  local result, is_error = wait_tool_result('toolu_8_0', 'the Edit of c.txt')
  H.note('c.txt Edit tool_result: ' .. result:sub(1, 200))
  H.check(not is_error, 'the Edit of c.txt failed: ' .. result)
  H.eq(want, H.lines(cbuf), 'c.txt buffer after Claude Code wrote it')
end)

-- The user types `user` on line `n` of a.txt over `base` (unsaved); Claude Code's next Edit (step
-- `go`) puts `claude` there: a conflict hunk pending review, Claude's line shown in place of the
-- user's, and Neovim's Accept / Reject question to be answered `answer`. Returns the user's lines
-- and how many questions were asked before.
local function conflict_over_typing(base, n, user, claude, go, answer)
  vim.api.nvim_buf_set_lines(bufnr, n - 1, n, true, { user })
  local users = with(base, n, user)
  H.assert_mirrored(bufnr, 'a.txt')
  question_answer = answer
  local asked = #questions
  local seen = pending_ops('a.txt')
  H.write_file(go_file[go], 'go')
  local hunk = wait_hunk(seen, 'a.txt')
  H.eq(n, hunk.line, 'the conflict hunk line')
  H.eq(with(base, n, claude), H.lines(bufnr), "a.txt while the review is pending: Claude's line in place of the user's")
  return users, asked
end

local a_disk -- a.txt on disk after the conflict the user kept theirs in
local kept_theirs = c_accepted and test("an Edit over the user's unsaved typing (a.txt line 5): Claude's line shown in place of theirs; keeping theirs (:HashlineReject) and Accept: Claude Code writes exactly the user's text", function()
  vim.api.nvim_set_current_buf(bufnr)
  local before = typed_plus(with(LINES, 10, EDIT1_NEW))
  H.eq(text_of(before), H.read_file(ws .. '/a.txt'), 'a.txt on disk before')
  local users, asked = conflict_over_typing(before, 5, USER5, CLAUDE5, 6, 'Accept')
  H.eq(text_of(before), H.read_file(ws .. '/a.txt'), 'a.txt on disk while the review is pending')
  local named = 'line 5 (yours: "' .. USER5 .. '" / Claude\'s: "' .. CLAUDE5:sub(1, 57)
  H.check((H.read_file(sidecar_log) or ''):find(named, 1, true), 'the sidecar log does not name the conflict as ' .. named)
  vim.api.nvim_win_set_cursor(0, { 5, 0 })
  vim.cmd('HashlineReject')
  H.check(H.wait(timeout_ms, function() return H.read_file(ws .. '/a.txt') == text_of(users) or driver_code ~= nil end),
    'a.txt on disk after keeping theirs and Accept: ' .. vim.inspect(H.read_file(ws .. '/a.txt')))
  H.eq(users, H.lines(bufnr), "a.txt buffer: the user's line")
  H.check(#questions == asked + 1 and questions[#questions]:find('overlapped your unsaved typing', 1, true),
    'Neovim asked Accept / Reject once: ' .. vim.inspect(questions))
  local result, is_error = wait_tool_result('toolu_11_0', 'the Edit of a.txt line 5')
  H.note('conflict Edit (kept theirs, Accept) tool_result: ' .. result:sub(1, 200))
  H.check(not is_error, 'the Edit failed: ' .. result)
  H.check(H.wait(5000, function() return not vim.bo[bufnr].modified end), "a.txt still 'modified' after Claude Code wrote its text")
  a_disk = text_of(users)
end)

local took_claudes = kept_theirs and test("again over unsaved typing (a.txt line 6): taking Claude's line (:HashlineAccept) then Reject: Claude's line goes, nothing is written, Claude Code reports the rejection", function()
  local base = H.lines(bufnr)
  local users, asked = conflict_over_typing(base, 6, USER6, CLAUDE6, 7, 'Reject')
  vim.api.nvim_win_set_cursor(0, { 6, 0 })
  vim.cmd('HashlineAccept')
  H.check(H.wait(timeout_ms, function() return vim.deep_equal(users, H.lines(bufnr)) or driver_code ~= nil end),
    "a.txt after Reject: the user's line back: " .. vim.inspect(H.lines(bufnr)))
  H.check(#questions == asked + 1, 'Neovim asked Accept / Reject once: ' .. vim.inspect(questions))
  H.write_file(go_file[8], 'go')
  local result, is_error = wait_tool_result('toolu_14_0', 'the Edit of a.txt line 6')
  H.note('conflict Edit (took Claude\'s, Reject) tool_result (is_error ' .. tostring(is_error) .. '): ' .. result:sub(1, 200))
  H.check(is_error and result:lower():find('reject', 1, true), 'the Edit is reported rejected: ' .. result)
  H.eq(a_disk, H.read_file(ws .. '/a.txt'), 'a.txt on disk: nothing written')
  H.eq(users, H.lines(bufnr), 'a.txt buffer at the end')
  H.check(H.wait(timeout_ms, function() return driver_code ~= nil end), 'Claude Code did not finish: ' .. table.concat(driver_err, ' '))
end)

if driver_job and driver_code == nil then
  vim.fn.jobstop(driver_job)
  H.wait(5000, function() return driver_code ~= nil end)
end
if connected then
  test('Claude Code exited cleanly after /exit', function()
    H.eq(0, driver_code, 'drive_claude.py exit (stderr ' .. table.concat(driver_err, ' ') .. ')')
  end)
end
for _, job in ipairs({ model_job, capture_job }) do
  if job then
    vim.fn.jobstop(job)
  end
end
H.reset()
H.finish()
