-- Chaos (issue 31): real Neovim with the plugin, three files with unsaved typing; a stream of agent
-- edits through the `hashline` CLI and a long-lived `hashline mcp` (this file is its MCP client:
-- newline-delimited JSON-RPC on the job's stdio), user typing (nvim_buf_set_text and typed keys),
-- and `kill -9` of the sidecar at a random moment of each round, CHAOS_KILLS times (default 50).
-- Every agent edit inserts a line holding its own marker after a line of the file; every keystroke
-- run types a line holding its own marker. After each kill the plugin must bring the sidecar back
-- (every buffer re-attached and mirrored as it is); then, and again at the end:
--   - an edit reported applied is in the live buffers exactly once (0 times once undone); one
--     refused with a code is in none; an answer without a code is a failure; an edit in flight at
--     the kill, whose answer was lost (SIDECAR_GONE "... may still apply it"), is in them once or not at
--     all, never twice (counted: how many landed, and how many of those the journal lacks);
--   - the files on disk are as they were (nobody saves here: any write is behind a modified buffer);
--   - every user marker is in the buffers exactly once;
--   - `hashline log` lists every op reported applied, once; an edit in flight at the kill that
--     landed has its op too (else the journal misses a change in the buffer);
--   - `hashline undo` of the newest applied edit works (its line leaves the buffer).
-- Prints NOTE lines with the counts; PASS/FAIL per property. Env: CHAOS_KILLS, CHAOS_SEED.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local uv = H.compat.uv
local ws = H.work .. '/ws'
local kills_wanted = tonumber(os.getenv('CHAOS_KILLS') or '50')
local seed = tonumber(os.getenv('CHAOS_SEED') or '') or (os.time() % 100000)
math.randomseed(seed)
vim.notify = function() end -- the plugin's restart messages; the fast suite checks them

local files = { 'f1.txt', 'f2.txt', 'f3.txt' }
local originals = {}
local bufs = {}
local hashline
local edits = {}       -- every agent edit: {n, via, file, marker, outcome, code, op, detail, undone}
local user_markers = {} -- every typed marker
local counts = { kills = 0, restarts = 0, cli = 0, mcp = 0, typed = 0, undo_ok = 0, undo_refused = 0,
  mirror_checks = 0, journal_checks = 0, unjournaled = 0 }
local failures = {}    -- property -> list of details

local function fail(property, detail)
  failures[property] = failures[property] or {}
  table.insert(failures[property], detail)
end

local function file_line(i, k)
  return string.format('f%d L%03d.', i, k)
end

-- Jobs ---------------------------------------------------------------------------------------

local running_jobs = 0

-- Runs the CLI with `args` in the workspace; calls done(code, stdout, stderr) on exit.
local function cli_async(args, done)
  local out, err = {}, {}
  local cmd = { H.bin }
  vim.list_extend(cmd, args)
  running_jobs = running_jobs + 1
  local id = vim.fn.jobstart(cmd, {
    cwd = ws,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data) out = data end,
    on_stderr = function(_, data) err = data end,
    on_exit = function(_, code)
      running_jobs = running_jobs - 1
      done(code, table.concat(out, '\n'), table.concat(err, '\n'))
    end,
  })
  if id <= 0 then
    running_jobs = running_jobs - 1
    done(-1, '', 'could not start ' .. H.bin)
  end
end

-- The error code an answer starts with (STALE_ANCHOR: ..., {"error":{"code":...}}), or nil.
local function code_of(text)
  local ok, decoded = pcall(vim.fn.json_decode, text)
  if ok and type(decoded) == 'table' and type(decoded.error) == 'table' and type(decoded.error.code) == 'string' then
    return decoded.error.code
  end
  return vim.trim(text or ''):match('^([A-Z][A-Z_]+[A-Z])[:%s]')
end

-- The MCP client -----------------------------------------------------------------------------

local mcp = { next_id = 1, waiting = {}, partial = '' }

local function mcp_send(message)
  vim.fn.chansend(mcp.job, vim.fn.json_encode(message) .. '\n')
end

local function mcp_request(method, params, done)
  local id = mcp.next_id
  mcp.next_id = id + 1
  mcp.waiting[id] = done
  running_jobs = running_jobs + 1
  mcp_send({ jsonrpc = '2.0', id = id, method = method, params = params })
end

local function mcp_on_stdout(_, data)
  data[1] = mcp.partial .. data[1]
  mcp.partial = table.remove(data)
  for _, line in ipairs(data) do
    if line ~= '' then
      local ok, message = pcall(vim.fn.json_decode, line)
      local done = ok and type(message) == 'table' and mcp.waiting[message.id]
      if done then
        mcp.waiting[message.id] = nil
        running_jobs = running_jobs - 1
        done(message)
      end
    end
  end
end

local function mcp_start()
  mcp.job = vim.fn.jobstart({ H.bin, 'mcp', '--structured', '--session', 'mcp-agent', '--agent', 'chaos-mcp' },
    { cwd = ws, on_stdout = mcp_on_stdout, on_exit = function(_, code) mcp.exited = code end })
  H.check(mcp.job > 0, 'hashline mcp did not start')
  local ready = false
  mcp_request('initialize', { protocolVersion = '2024-11-05', capabilities = {},
    clientInfo = { name = 'chaos', version = '1' } }, function() ready = true end)
  H.check(H.wait(20000, function() return ready end), 'hashline mcp did not answer initialize')
  mcp_send({ jsonrpc = '2.0', method = 'notifications/initialized' })
end

-- A tool call's outcome: 'ok' and the result object, or 'refused' and the code (nil: none given).
local function mcp_outcome(message)
  if message.error then
    return 'refused', code_of(vim.fn.json_encode(message.error)) or (type(message.error.code) == 'string'
      and message.error.code), vim.fn.json_encode(message.error)
  end
  local result = message.result or {}
  local text = ''
  for _, part in ipairs(result.content or {}) do
    text = text .. tostring(part.text or '')
  end
  local structured = result.structuredContent
  if result.isError then
    local code = type(structured) == 'table' and type(structured.error) == 'table' and structured.error.code
    return 'refused', (type(code) == 'string' and code) or code_of(text), text
  end
  return 'ok', structured, text
end

-- Agent edits --------------------------------------------------------------------------------

local function new_edit(via, file_index)
  local n = #edits + 1
  local k = math.random(1, 40)
  local edit = { n = n, via = via, file = files[file_index], marker = string.format('agent-%s-%d', via, n),
    old = file_line(file_index, k), outcome = 'running' }
  edit.new = edit.old .. '\n' .. edit.marker
  table.insert(edits, edit)
  return edit
end

-- An answer that never came (the sidecar died with the edit in flight): the edit may or may not
-- have reached the buffer, and the agent is told so (SIDECAR_GONE "... it may still apply it";
-- IO_ERROR "... did not answer" before that code). Any other SIDECAR_GONE (the sidecar was gone
-- before the call) is a refusal: nothing was sent.
local function answer_lost(code, detail)
  detail = tostring(detail)
  return (code == 'SIDECAR_GONE' and detail:find('may still apply it', 1, true) ~= nil)
    or (code == 'IO_ERROR' and detail:find('did not answer', 1, true) ~= nil)
end

-- outcome: 'applied' (result = the result object: its versions find the journal op), 'refused'
-- (with the code), or 'unknown' (the answer was lost).
local function settle(edit, outcome, code, result, detail)
  if outcome == 'refused' and answer_lost(code, detail) then
    outcome = 'unknown'
  end
  edit.outcome, edit.code, edit.detail = outcome, code, detail
  if type(result) == 'table' then
    edit.version, edit.version_before = result.version, result.versionBefore
  end
end

-- read, then replace: the old line stays, the marker line follows it.
local function cli_edit(file_index)
  counts.cli = counts.cli + 1
  local edit = new_edit('cli', file_index)
  cli_async({ 'read', edit.file, '--session', 'cli-agent', '--json' }, function(code, out, err)
    if code ~= 0 then
      return settle(edit, 'refused', code_of(err) or code_of(out), nil, 'read: ' .. err .. out)
    end
    cli_async({ 'replace', edit.file, '--session', 'cli-agent', '--agent', 'chaos-cli', '--old', edit.old,
      '--new', edit.new, '--json' }, function(code2, out2, err2)
      local ok, result = pcall(vim.fn.json_decode, out2)
      if code2 == 0 and ok and type(result) == 'table' and result.status == 'applied' then
        return settle(edit, 'applied', nil, result, out2)
      end
      settle(edit, 'refused', code_of(err2) or code_of(out2), nil, 'exit ' .. code2 .. ': ' .. err2 .. out2)
    end)
  end)
end

local function mcp_edit(file_index)
  counts.mcp = counts.mcp + 1
  local edit = new_edit('mcp', file_index)
  mcp_request('tools/call', { name = 'hashline_read', arguments = { path = edit.file } }, function(message)
    local outcome, code_or_result, text = mcp_outcome(message)
    if outcome ~= 'ok' then
      return settle(edit, 'refused', code_or_result, nil, 'read: ' .. tostring(text))
    end
    mcp_request('tools/call', { name = 'hashline_replace', arguments = { path = edit.file,
      edits = { { old = edit.old, new = edit.new } } } }, function(reply)
      local outcome2, result, text2 = mcp_outcome(reply)
      if outcome2 == 'ok' and type(result) == 'table' and result.status == 'applied' then
        return settle(edit, 'applied', nil, result, text2)
      end
      if outcome2 == 'ok' then -- a result without status applied: a refusal in the object
        local code = type(result) == 'table' and type(result.error) == 'table' and result.error.code or code_of(text2)
        return settle(edit, 'refused', code, nil, text2)
      end
      settle(edit, 'refused', result, nil, text2)
    end)
  end)
end

-- User typing --------------------------------------------------------------------------------

local function type_line()
  counts.typed = counts.typed + 1
  local marker = 'user-' .. counts.typed
  table.insert(user_markers, marker)
  local name = files[math.random(1, #files)]
  local bufnr = bufs[name]
  local count = vim.api.nvim_buf_line_count(bufnr)
  local at = math.random(0, count - 1)
  if math.random() < 0.5 then
    vim.api.nvim_buf_set_text(bufnr, at, 0, at, 0, { marker, '' })
  else
    vim.api.nvim_set_current_buf(bufnr)
    vim.api.nvim_win_set_cursor(0, { at + 1, 0 })
    H.type_keys('o' .. marker .. '<Esc>')
  end
end

-- Checks -------------------------------------------------------------------------------------

local function occurrences(marker)
  local n = 0
  for _, name in ipairs(files) do
    for _, line in ipairs(H.lines(bufs[name])) do
      if line == marker then
        n = n + 1
      end
    end
  end
  return n
end

local function sidecar_pid()
  local status = hashline.status(bufs[files[1]], { timeout = 20000 })
  return type(status) == 'table' and status.pid or nil
end

-- Every buffer attached to one initialized client other than `old_id`, and mirrored as it is.
local function wait_restarted(old_id)
  local back = H.wait(60000, function()
    local first = hashline.client(bufs[files[1]])
    if not first or first.id == old_id or not first.initialized then
      return false
    end
    for _, name in ipairs(files) do
      if not H.compat.attached(first, bufs[name]) then
        return false
      end
    end
    return true
  end)
  if not back then
    fail('restart', 'the sidecar was not back with every buffer within 60 s after kill ' .. counts.kills)
    return nil
  end
  for _, name in ipairs(files) do
    local ok, err = pcall(H.assert_mirrored, bufs[name], name .. ' after kill ' .. counts.kills)
    counts.mirror_checks = counts.mirror_checks + 1
    if not ok then
      fail('mirror', tostring(err))
    end
  end
  return hashline.client(bufs[files[1]])
end

local disk_seen = {}
local lost_reported = {}
local function check_disk(when)
  for _, name in ipairs(files) do
    local now = H.read_file(ws .. '/' .. name)
    if now ~= (disk_seen[name] or originals[name]) then
      local agent = {}
      for marker in now:gmatch('agent%-%a+%-%d+') do
        table.insert(agent, marker)
      end
      fail('disk', string.format('%s: %s changed on disk behind its modified buffer (agent lines on disk: %s)',
        when, name, table.concat(agent, ', ')))
      disk_seen[name] = now
    end
  end
end

local function check_edits(when, final)
  for _, edit in ipairs(edits) do
    if edit.outcome ~= 'running' and not edit.reported then
      local seen = occurrences(edit.marker)
      local allowed
      if edit.outcome == 'applied' then
        allowed = { [edit.undone and 0 or 1] = true }
      elseif edit.outcome == 'unknown' then
        allowed = { [0] = true, [1] = true } -- in flight at the kill: once or not at all, never twice
        edit.landed = seen == 1
      else
        allowed = { [0] = true }
      end
      if not allowed[seen] then
        edit.reported = true -- report each edit once
        fail('exactly-once', string.format('%s: %s edit %d (%s%s) is in the buffers %d times: %s', when,
          edit.via, edit.n, edit.outcome, edit.code and (' ' .. edit.code) or '', seen,
          H.one_line(edit.detail):sub(1, 300)))
      elseif edit.outcome == 'refused' and not edit.code then
        edit.reported = true
        fail('code', string.format('%s: %s edit %d refused without a code: %s', when, edit.via, edit.n,
          H.one_line(edit.detail):sub(1, 300)))
      end
    end
  end
  for _, marker in ipairs(user_markers) do
    local seen = occurrences(marker)
    if seen ~= 1 and not lost_reported[marker] then
      lost_reported[marker] = true
      fail('keystrokes', string.format('%s: %s is in the buffers %d times', when, marker, seen))
    end
  end
end

-- Every edit reported applied has its op in `hashline log` (found by file and versions), each op
-- listed once; the agents' ops no reported edit claims are counted against the edits whose answer
-- was lost but that landed (journaled before the kill, or not at all: then `unjournaled`).
local function check_journal(when)
  counts.journal_checks = counts.journal_checks + 1
  local code, log, all = H.cli_json(ws, { 'log', '--limit', '100000' })
  if code ~= 0 then
    return fail('journal', when .. ': hashline log failed: ' .. all:sub(1, 300))
  end
  local seen, claimed, agent_ops = {}, {}, {}
  for _, op in ipairs(log.ops or {}) do
    if seen[op.op] then
      fail('journal', when .. ': op ' .. tostring(op.op) .. ' listed twice')
    end
    seen[op.op] = op
    if tostring(op.agent):find('^chaos') and op.reverts == nil then
      table.insert(agent_ops, op)
    end
  end
  for _, edit in ipairs(edits) do
    if edit.outcome == 'applied' then
      if edit.op == nil then
        for _, op in ipairs(agent_ops) do
          if not claimed[op.op] and vim.endswith(tostring(op.path or op.uri), '/' .. edit.file)
            and op.versionAfter == edit.version and op.versionBefore == edit.version_before then
            edit.op = op.op
            break
          end
        end
      end
      if edit.op == nil then
        if not edit.journal_reported then
          edit.journal_reported = true
          fail('journal', string.format('%s: %s edit %d (applied, version %s) has no op in the journal', when, edit.via,
            edit.n, tostring(edit.version)))
        end
      else
        claimed[edit.op] = true
      end
    end
  end
  local unclaimed, landed = 0, 0
  for _, op in ipairs(agent_ops) do
    if not claimed[op.op] then
      unclaimed = unclaimed + 1
    end
  end
  for _, edit in ipairs(edits) do
    if edit.outcome == 'unknown' and edit.landed then
      landed = landed + 1
    end
  end
  counts.unjournaled = math.max(0, landed - unclaimed)
end

-- Undo of the newest applied edit that is still in effect; its line must leave the buffer.
local function check_undo(when)
  for i = #edits, 1, -1 do
    local edit = edits[i]
    if edit.outcome == 'applied' and not edit.undone and not edit.undo_failed and edit.op ~= nil then
      local code, result, all = H.cli_json(ws, { 'undo', tostring(edit.op) })
      if code == 0 and result.status == 'applied' then
        edit.undone = true
        counts.undo_ok = counts.undo_ok + 1
        if occurrences(edit.marker) ~= 0 then
          fail('undo', string.format('%s: undo of op %s answered applied but %s is still in the buffer', when,
            tostring(edit.op), edit.marker))
        end
      else
        counts.undo_refused = counts.undo_refused + 1
        edit.undo_failed = true -- reported once; the next round undoes another edit
        fail('undo', string.format('%s: undo of op %s (%s edit %d) failed: %s', when, tostring(edit.op), edit.via,
          edit.n, H.one_line(all):sub(1, 300)))
      end
      return
    end
  end
end

local function wait_jobs(when)
  if not H.wait(120000, function() return running_jobs == 0 end) then
    fail('hang', when .. ': ' .. running_jobs .. ' agent call(s) never finished')
  end
end

-- The run ------------------------------------------------------------------------------------

H.drive(function()
  vim.fn.mkdir(ws .. '/.git', 'p')
  for i, name in ipairs(files) do
    local lines = {}
    for k = 1, 40 do
      lines[k] = file_line(i, k)
    end
    originals[name] = H.text_of(lines)
  end
  hashline = H.setup({ restart = { backoff_ms = 100, window_ms = 1000, max_crashes = 1000 } })
  for _, name in ipairs(files) do
    bufs[name] = H.open(ws .. '/' .. name, originals[name])
  end
  for _ = 1, 6 do
    type_line() -- unsaved typing in every file before anything else
  end
  mcp_start()
  H.note(string.format('chaos seed %d, %d kills wanted, Neovim %s', seed, kills_wanted,
    tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch))
  local client = hashline.client(bufs[files[1]])
  local started = uv.hrtime()
  while counts.kills < kills_wanted do
    local pid = sidecar_pid()
    if not pid then
      fail('restart', 'no sidecar pid before kill ' .. (counts.kills + 1))
      break
    end
    -- a burst of agent edits and typing, the kill at a random moment inside it
    for _ = 1, math.random(1, 3) do
      if math.random() < 0.5 then cli_edit(math.random(1, #files)) else mcp_edit(math.random(1, #files)) end
    end
    type_line()
    H.sleep(math.random(0, 120))
    uv.kill(pid, 'sigkill')
    counts.kills = counts.kills + 1
    -- the dead window: more edits and typing while the plugin restarts the sidecar
    if math.random() < 0.5 then cli_edit(math.random(1, #files)) end
    if math.random() < 0.5 then mcp_edit(math.random(1, #files)) end
    type_line()
    H.sleep(math.random(0, 150))
    type_line()
    local when = 'after kill ' .. counts.kills
    client = wait_restarted(client and client.id)
    if not client then
      break
    end
    counts.restarts = counts.restarts + 1
    wait_jobs(when)
    check_disk(when)
    check_edits(when)
    check_journal(when)
    check_undo(when)
  end
  wait_jobs('at the end')
  check_disk('at the end')
  check_edits('at the end', true)
  check_journal('at the end')
  local tally = { applied = 0, refused = 0, unknown = 0, landed = 0 }
  local codes = {}
  for _, edit in ipairs(edits) do
    tally[edit.outcome] = (tally[edit.outcome] or 0) + 1
    if edit.outcome == 'unknown' and edit.landed then
      tally.landed = tally.landed + 1
    end
    if edit.code then
      codes[edit.code] = (codes[edit.code] or 0) + 1
    end
  end
  local code_list = {}
  for code, n in pairs(codes) do
    table.insert(code_list, code .. '=' .. n)
  end
  table.sort(code_list)
  H.note(string.format('kills %d, restarts %d, agent edits %d (cli %d, mcp %d): applied %d, refused %d, '
    .. 'answer lost at the kill %d (of them in the buffer %d, not journaled %d); codes %s; undone after restarts %d; '
    .. 'user lines typed %d; mirror checks %d; journal checks %d; %.0f s',
    counts.kills, counts.restarts, #edits, counts.cli, counts.mcp, tally.applied, tally.refused, tally.unknown,
    tally.landed, counts.unjournaled, table.concat(code_list, ' '), counts.undo_ok, counts.typed,
    counts.mirror_checks, counts.journal_checks, (uv.hrtime() - started) / 1e9))
  for _, property in ipairs({ 'restart', 'mirror', 'exactly-once', 'code', 'disk', 'keystrokes', 'journal', 'undo',
    'hang' }) do
    local list = failures[property] or {}
    H.note(string.format('%s violations: %d', property, #list))
  end
  local function verdict(name, properties)
    local all = {}
    for _, property in ipairs(properties) do
      vim.list_extend(all, failures[property] or {})
    end
    local shown = {}
    for i = 1, math.min(#all, 8) do
      shown[i] = all[i]
    end
    H.record(#all == 0, name, #all > 0 and (#all .. ' violation(s): ' .. table.concat(shown, ' || ')) or nil)
  end
  H.record(counts.kills >= kills_wanted and counts.restarts == counts.kills, 'kills-and-restarts',
    counts.kills .. ' kills, ' .. counts.restarts .. ' restarts')
  verdict('restarted-and-mirrored-after-every-kill', { 'restart', 'mirror' })
  verdict('agent-edits-exactly-once-or-refused-with-a-code', { 'exactly-once', 'code', 'hang' })
  verdict('nothing-written-to-disk-behind-a-modified-buffer', { 'disk' })
  verdict('no-keystroke-lost', { 'keystrokes' })
  verdict('journal-consistent', { 'journal' })
  H.record(counts.unjournaled == 0, 'in-flight-edits-that-landed-are-journaled', counts.unjournaled
    .. ' edit(s) whose answer was lost at the kill are in the buffers but not in the journal (undo them with u)')
  verdict('undo-after-every-restart', { 'undo' })
  if mcp.job then
    vim.fn.jobstop(mcp.job)
  end
end)
