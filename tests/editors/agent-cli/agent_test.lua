-- Real agent CLIs from npm (Claude Code, OpenAI Codex, Gemini CLI) edit files that headless Neovim
-- holds open with unsaved typing (issues 13 and 20). Each CLI talks to fake_model.mjs, a scripted
-- local endpoint (Claude Code: Messages API; Codex: Responses API; Gemini: Gemini API) whose turns
-- make it change line 37 of a.txt and line 28 of b.txt with its own file tools — Claude Code: `Edit`
-- and `Write`; Codex: `apply_patch` and `sed -i` (write-temp + rename); Gemini: `write_file` and
-- `replace` (in-place truncate + write) — then finish. Per agent: first the CLI runs alone (its
-- writes reach the disk), then beside Neovim with the plugin attached to `hashline lsp`, while the
-- user keeps typing into a.txt. Checks: the typing survives, the agent's change is in each buffer,
-- the disk holds the agent's change and no typing, `hashline log` lists one `reconcile` op by `disk`
-- per file, its undo restores exactly the pre-agent line, and the user's later `:write` is not
-- taken for a foreign write. Then the MCP path: `hashline setup AGENT --user` in the CLI's private
-- home, the model reads c.txt (open, with unsaved typing) and edits it by anchor through hashline's
-- tools; the edit lands in the live buffer, the read the CLI handed the model is at most 1.2x the
-- bytes of the plain rows, and `setup --undo` leaves no trace.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h')
local H = dofile(assert(os.getenv('REPO_ROOT')) .. '/tests/editors/nvim-edits/harness.lua')
local agent_timeout_ms = tonumber(os.getenv('AGENT_TIMEOUT_MS') or '') or 120000
local sandbox = os.getenv('CODEX_SANDBOX') or 'workspace-write'
vim.o.hidden = true -- a.txt stays loaded, unsaved, while b.txt is edited

local function numbered(name, n)
  local lines = {}
  for i = 1, n do
    table.insert(lines, string.format('line %02d of %s', i, name))
  end
  return lines
end

local A_LINES, B_LINES = numbered('a.txt', 40), numbered('b.txt', 30)
local A_OLD, A_NEW = A_LINES[37], A_LINES[37] .. ', patched by the agent'
local C_LINES, TYPED_C = numbered('c.txt', 30), 'typed by the user into c.txt, not saved'
local C_NEW = 'line 05 of c.txt, edited through hashline'
local B_OLD, B_NEW = B_LINES[28], B_LINES[28] .. ', changed by the agent'
local function with_line(lines, i, text)
  local out = vim.deepcopy(lines)
  out[i] = text
  return out
end
local A_AFTER, B_AFTER = with_line(A_LINES, 37, A_NEW), with_line(B_LINES, 28, B_NEW)
local function text_of(lines)
  return table.concat(lines, '\n') .. '\n'
end

local function setup_workspace(ws)
  vim.fn.mkdir(ws, 'p')
  vim.fn.system({ 'git', 'init', '-q', ws })
  H.write_file(ws .. '/a.txt', text_of(A_LINES))
  H.write_file(ws .. '/b.txt', text_of(B_LINES))
end

local model = dofile(here .. '/fake_model.lua')(H)
local start_model, model_requests, tool_output = model.start, model.requests, model.tool_output

local AGENTS = {}

AGENTS.codex = {
  bin = os.getenv('CODEX_BIN'),
  tools = 'apply_patch and sed -i',
  -- apply_patch on a.txt (codex runs it through exec_command and applies it itself), then
  -- sed -i on b.txt, then a final message.
  turns = function(_)
    return {
      { { call = 'exec_command', arguments = { cmd = table.concat({
        "apply_patch <<'PATCH'", '*** Begin Patch', '*** Update File: a.txt', '@@', '-' .. A_OLD, '+' .. A_NEW,
        '*** End Patch', 'PATCH' }, '\n'), yield_time_ms = 10000 } } },
      { { call = 'exec_command', arguments = {
        cmd = string.format("sed -i 's/^%s$/%s/' b.txt", B_OLD, B_NEW), yield_time_ms = 10000 } } },
      { { text = 'Edited a.txt and b.txt.' } },
    }
  end,
  -- A CODEX_HOME whose config.toml points a custom provider at the fake model.
  command = function(ws, home, port)
    H.write_file(home .. '/config.toml', table.concat({
      'model = "fake-model"',
      'model_provider = "fake"',
      '[model_providers.fake]',
      'name = "fake scripted model"',
      string.format('base_url = "http://127.0.0.1:%d/v1"', port),
      'env_key = "HASHLINE_FAKE_MODEL_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
    }, '\n') .. '\n')
    return { AGENTS.codex.bin, 'exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never',
      '-s', sandbox, '-c', 'approval_policy="never"', '-C', ws,
      'Patch line 37 of a.txt with apply_patch, then change line 28 of b.txt with sed.' },
      { CODEX_HOME = home, HASHLINE_FAKE_MODEL_KEY = 'fake-key' }
  end,
  check_tools = function(requests)
    local patch_out = tool_output(requests, 'call_0_0')
    H.check(patch_out and patch_out:find('Success', 1, true), 'apply_patch output codex sent the model: ' .. tostring(patch_out))
    local sed_out = tool_output(requests, 'call_1_0')
    H.check(sed_out and (sed_out:find('exited with code 0', 1, true) or sed_out:find('Exit code: 0', 1, true)),
      'sed output codex sent the model: ' .. tostring(sed_out))
  end,
}

AGENTS.gemini = {
  bin = os.getenv('GEMINI_BIN'),
  tools = 'write_file and replace',
  -- write_file of the whole of a.txt with line 37 changed, then replace on b.txt, then a message.
  turns = function(ws)
    return {
      { { call = 'write_file', arguments = { file_path = ws .. '/a.txt', content = text_of(A_AFTER) } } },
      { { call = 'replace', arguments = { file_path = ws .. '/b.txt', old_string = B_OLD, new_string = B_NEW,
        instruction = 'Change line 28.' } } },
      { { text = 'Edited a.txt and b.txt.' } },
    }
  end,
  -- A private HOME whose ~/.gemini/settings.json selects API-key auth (the base URL alone selects
  -- the "gateway" type, which non-interactive runs refuse) and turns folder trust off (an untrusted
  -- folder overrides --yolo).
  command = function(ws, home, port)
    H.write_file(home .. '/.gemini/settings.json', vim.fn.json_encode({
      security = { auth = { selectedType = 'gemini-api-key' }, folderTrust = { enabled = false } },
    }))
    return { AGENTS.gemini.bin, '--yolo', '-p', 'Change line 37 of a.txt and line 28 of b.txt.' },
      { HOME = home, GOOGLE_GEMINI_BASE_URL = string.format('http://127.0.0.1:%d', port),
        GEMINI_API_KEY = 'fake-key', NO_COLOR = '1' }
  end,
  check_tools = function(requests)
    local write_out = tool_output(requests, 'write_file')
    H.check(write_out and write_out:find('Successfully', 1, true), 'write_file output gemini sent the model: ' .. tostring(write_out))
    local replace_out = tool_output(requests, 'replace')
    H.check(replace_out and replace_out:find('Successfully', 1, true), 'replace output gemini sent the model: ' .. tostring(replace_out))
  end,
}

-- Claude Code's config dir inside a private home, seeded so that no dialog stops a run.
local function claude_config(home, ws)
  local dir = home .. '/claude-config'
  vim.fn.mkdir(dir, 'p')
  local path = dir .. '/.claude.json'
  local config = vim.fn.filereadable(path) == 1 and vim.fn.json_decode(H.read_file(path)) or {}
  config.hasCompletedOnboarding = true
  config.bypassPermissionsModeAccepted = true
  config.customApiKeyResponses = { approved = { 'sk-ant-fake-key-0123456789' }, rejected = {} }
  config.projects = type(config.projects) == 'table' and config.projects or {}
  config.projects[ws] = vim.tbl_extend('force', config.projects[ws] or {}, { hasTrustDialogAccepted = true })
  H.write_file(path, vim.fn.json_encode(config))
  return dir
end

AGENTS.claude = {
  bin = os.getenv('CLAUDE_BIN'),
  tools = 'Edit and Write',
  -- Read + Edit of a.txt, Read + Write (the whole file) of b.txt — Claude Code refuses to change a
  -- file its model has not read — then a final message.
  turns = function(ws)
    return {
      { { call = 'Read', arguments = { file_path = ws .. '/a.txt' } } },
      { { call = 'Edit', arguments = { file_path = ws .. '/a.txt', old_string = A_OLD, new_string = A_NEW } } },
      { { call = 'Read', arguments = { file_path = ws .. '/b.txt' } } },
      { { call = 'Write', arguments = { file_path = ws .. '/b.txt', content = text_of(B_AFTER) } } },
      { { text = 'Edited a.txt and b.txt.' } },
    }
  end,
  -- `claude -p` with CLAUDE_CONFIG_DIR in a private home; as root --dangerously-skip-permissions
  -- needs IS_SANDBOX=1.
  command = function(ws, home, port)
    return { AGENTS.claude.bin, '-p', 'Change line 37 of a.txt and line 28 of b.txt.', '--model', 'fake-model',
      '--dangerously-skip-permissions' },
      { HOME = home, CLAUDE_CONFIG_DIR = claude_config(home, ws), IS_SANDBOX = '1',
        ANTHROPIC_BASE_URL = string.format('http://127.0.0.1:%d', port), ANTHROPIC_API_KEY = 'sk-ant-fake-key-0123456789',
        DISABLE_TELEMETRY = '1', DISABLE_AUTOUPDATER = '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1', NO_COLOR = '1' }
  end,
  check_tools = function(requests)
    local edit_out = tool_output(requests, 'toolu_1_0')
    H.check(edit_out and edit_out:find('has been updated', 1, true), 'Edit output claude sent the model: ' .. tostring(edit_out))
    local write_out = tool_output(requests, 'toolu_3_0')
    H.check(write_out and write_out:find('has been updated', 1, true), 'Write output claude sent the model: ' .. tostring(write_out))
  end,
}

-- The first offered tool whose name ends in `suffix` (Responses: tools[].name; Gemini:
-- tools[].functionDeclarations[].name), or nil.
local function offered_tool(requests, suffix)
  for _, body in ipairs(requests) do
    for _, tool in ipairs(body.tools or {}) do
      local names = { tool.name }
      for _, inner in ipairs(tool.type == 'namespace' and tool.tools or {}) do
        table.insert(names, inner.name) -- codex: an MCP server is a namespace of tools
      end
      for _, decl in ipairs(tool.functionDeclarations or {}) do
        table.insert(names, decl.name)
      end
      for _, name in ipairs(names) do
        if type(name) == 'string' and vim.endswith(name, suffix) then
          return name
        end
      end
    end
  end
end

local function json_file_has_server(bytes, path_to_servers)
  local ok, decoded = pcall(vim.fn.json_decode, bytes)
  if not ok or type(decoded) ~= 'table' then
    return bytes:find('"hashline"', 1, true) ~= nil
  end
  return path_to_servers(decoded)
end

-- The hashline read + anchored edit of c.txt's line 6 (line 5 of the file under the typed line).
local function mcp_read_edit_turns(read_tool, edit_tool)
  return {
    { { call = read_tool, arguments = { path = 'c.txt' } } },
    { { call = edit_tool, arguments = { path = 'c.txt',
      edits = { { op = 'replace', anchor = '{{anchor:6}}', content = C_NEW } } } } },
    { { text = 'Edited c.txt through hashline.' } },
  }
end

AGENTS.claude.mcp_turns = function()
  -- Claude Code defers MCP tools: the model loads them through ToolSearch first, as a real one does.
  local turns = { { { call = 'ToolSearch', arguments = { query = 'select:mcp__hashline__hashline_read,mcp__hashline__hashline_edit' } } } }
  vim.list_extend(turns, mcp_read_edit_turns('mcp__hashline__hashline_read', 'mcp__hashline__hashline_edit'))
  return turns
end
AGENTS.claude.mcp_result = function(requests, which)
  return tool_output(requests, which == 'read' and 'toolu_1_0' or 'toolu_2_0')
end
AGENTS.claude.check_mcp_listed = function(requests)
  H.check(requests[1] and vim.fn.json_encode(requests[1]):find('mcp__hashline__hashline_read', 1, true),
    'Claude Code did not list hashline_read among its (deferred) tools in its first request')
  local found = tool_output(requests, 'toolu_0_0') or ''
  H.check(found:find('hashline_edit', 1, true), 'ToolSearch did not load the hashline tools: ' .. found:sub(1, 400))
end
AGENTS.claude.mcp_config_files = function(env)
  return { env.CLAUDE_CONFIG_DIR .. '/.claude.json', env.CLAUDE_CONFIG_DIR .. '/settings.json' }
end
AGENTS.claude.registers_hashline = function(bytes)
  return json_file_has_server(bytes, function(config)
    if type(config.mcpServers) == 'table' and config.mcpServers.hashline then
      return true
    end
    for _, project in pairs(type(config.projects) == 'table' and config.projects or {}) do
      if type(project) == 'table' and type(project.mcpServers) == 'table' and project.mcpServers.hashline then
        return true
      end
    end
    local perms = type(config.permissions) == 'table' and config.permissions or {}
    return vim.fn.json_encode(perms):find('hashline', 1, true) ~= nil
  end)
end

AGENTS.codex.mcp_turns = function()
  return mcp_read_edit_turns('*hashline_read', '*hashline_edit')
end
AGENTS.codex.mcp_result = function(requests, which)
  return tool_output(requests, which == 'read' and 'call_0_0' or 'call_1_0')
end
AGENTS.codex.check_mcp_listed = function(requests)
  H.check(offered_tool(requests, 'hashline_read'), 'codex did not offer a hashline_read tool')
end
AGENTS.codex.mcp_config_files = function(env)
  return { env.CODEX_HOME .. '/config.toml' }
end
AGENTS.codex.registers_hashline = function(bytes)
  return bytes:find('mcp_servers.hashline', 1, true) ~= nil
end

AGENTS.gemini.mcp_turns = function()
  return mcp_read_edit_turns('*hashline_read', '*hashline_edit')
end
AGENTS.gemini.mcp_result = function(requests, which)
  local name = offered_tool(requests, 'hashline_' .. which)
  return name and tool_output(requests, name, 1)
end
AGENTS.gemini.check_mcp_listed = function(requests)
  H.check(offered_tool(requests, 'hashline_read'), 'gemini did not offer a hashline_read tool')
end
AGENTS.gemini.mcp_config_files = function(env)
  return { env.HOME .. '/.gemini/settings.json' }
end
AGENTS.gemini.registers_hashline = function(bytes)
  return json_file_has_server(bytes, function(config)
    return type(config.mcpServers) == 'table' and config.mcpServers.hashline ~= nil
  end)
end

-- Runs the agent CLI in `ws` against the fake model as a job (Neovim keeps serving the sidecar
-- meanwhile). Returns exit code, combined output, the model requests.
-- `turns` (default agent.turns(ws)) is the model's script; `before_start(env)`, if given, runs once
-- the CLI's home and environment are ready, just before it starts.
local function run_agent(agent, ws, dir, turns, before_start)
  local model_job, port, log = start_model(dir, turns or agent.turns(ws))
  local home = dir .. '/home'
  vim.fn.mkdir(home, 'p')
  local cmd, env = agent.command(ws, home, port)
  if before_start then
    local ok, err = pcall(before_start, env)
    if not ok then
      vim.fn.jobstop(model_job)
      error(err, 0)
    end
  end
  local out, code = {}, nil
  local collect = function(_, data) vim.list_extend(out, data) end
  local job = vim.fn.jobstart(cmd, {
    cwd = ws,
    env = env,
    on_stdout = collect,
    on_stderr = collect,
    on_exit = function(_, c) code = c end,
  })
  H.check(job > 0, 'could not start ' .. cmd[1])
  vim.fn.chanclose(job, 'stdin')
  local exited = H.wait(agent_timeout_ms, function() return code ~= nil end)
  if not exited then
    vim.fn.jobstop(job)
  end
  vim.fn.jobstop(model_job)
  local output = table.concat(out, '\n')
  H.write_file(dir .. '/agent.out', output)
  H.check(exited, string.format('%s did not exit within %d ms: %s', cmd[1], agent_timeout_ms, output:sub(-800)))
  return code, output, model_requests(log)
end

-- Checks that the CLI exited 0 and ran both tool calls successfully by what it told the model.
local function check_run(agent, code, output, requests)
  H.eq(0, code, 'exit code (output: ' .. output:sub(-800) .. ')')
  H.check(#requests >= 3, string.format('%d model requests, want 3 (output: %s)', #requests, output:sub(-800)))
  agent.check_tools(requests)
end

local TYPED_A, TYPED_B = 'typed by the user into a.txt ', 'typed by the user into b.txt'

-- Runs `hashline ARGS` in `cwd` with `env` added (H.cli has no env); returns code, stdout+stderr.
local function cli_env(cwd, args, env)
  local out, code = {}, nil
  local cmd = { H.bin }
  vim.list_extend(cmd, args)
  local collect = function(_, data) vim.list_extend(out, data) end
  local job = vim.fn.jobstart(cmd, { cwd = cwd, env = env, on_stdout = collect, on_stderr = collect,
    on_exit = function(_, c) code = c end })
  H.check(job > 0, 'could not start ' .. H.bin)
  vim.fn.chanclose(job, 'stdin')
  H.check(H.wait(60000, function() return code ~= nil end), 'CLI did not exit: ' .. table.concat(cmd, ' '))
  return code, table.concat(out, '\n')
end

-- Every regular file under `dir` (relative path -> bytes).
local function files_under(dir)
  local found = {}
  for _, path in ipairs(vim.fn.globpath(dir, '**', true, true)) do
    if vim.fn.isdirectory(path) == 0 then
      found[path:sub(#dir + 2)] = H.read_file(path)
    end
  end
  for _, path in ipairs(vim.fn.globpath(dir, '**/.*', true, true)) do
    if vim.fn.isdirectory(path) == 0 then
      found[path:sub(#dir + 2)] = H.read_file(path)
    end
  end
  return found
end

-- The MCP path for one agent: `hashline setup NAME --user` where the CLI reads it, then a model
-- that reads c.txt (open in Neovim, unsaved typing on top) and edits its line 6 by the anchor it
-- copied from the read, through hashline's tools.
local function mcp_suite(name, agent)
  local function test(title, fn)
    return H.test(name .. ': ' .. title, fn)
  end
  local dir = H.work .. '/' .. name .. '/mcp'
  local ws = dir .. '/ws'
  local bufnr, requests, plain, config_files = nil, nil, nil, {}
  local opened = test('MCP: c.txt open in Neovim with unsaved typing on top', function()
    vim.fn.mkdir(ws, 'p')
    vim.fn.system({ 'git', 'init', '-q', ws })
    H.write_file(ws .. '/c.txt', text_of(C_LINES))
    vim.cmd('cd ' .. vim.fn.fnameescape(ws))
    H.setup()
    bufnr = H.open(ws .. '/c.txt')
    vim.api.nvim_buf_set_lines(bufnr, 0, 0, true, { TYPED_C })
    H.assert_mirrored(bufnr, 'c.txt')
    local code, out, err = H.cli(ws, { 'read', 'c.txt' })
    H.eq(0, code, 'hashline read c.txt (stderr ' .. err .. ')')
    plain = out .. '\n'
    H.check(plain:find('1:%w+:%w+\u{2192}' .. TYPED_C) or plain:find(TYPED_C, 1, true), 'the read shows the typing: ' .. plain)
  end)
  if not opened then
    H.reset()
    return
  end

  local home = dir .. '/home'
  local setup_env
  local ran = test('MCP: hashline setup ' .. name .. ' --user registers it; the model reads and edits through it', function()
    local turns = agent.mcp_turns()
    local code, output
    code, output, requests = run_agent(agent, ws, dir, turns, function(env)
      setup_env = env
      config_files = files_under(home)
      local rc, out = cli_env(ws, { 'setup', name, '--user' }, env)
      H.eq(0, rc, 'hashline setup ' .. name .. ' --user: ' .. out)
    end)
    H.eq(0, code, 'exit code (output: ' .. output:sub(-800) .. ')')
    agent.check_mcp_listed(requests)
  end)
  if ran then
    test('MCP: the edit lands in the live buffer, typing kept, disk untouched, journaled', function()
      local want = { TYPED_C }
      vim.list_extend(want, C_LINES)
      want[6] = C_NEW
      H.check(H.wait(10000, function() return vim.deep_equal(want, H.lines(bufnr)) end),
        'c.txt buffer: ' .. vim.inspect(H.lines(bufnr)) .. '\nedit result: ' .. tostring(agent.mcp_result(requests, 'edit')))
      H.assert_mirrored(bufnr, 'c.txt')
      H.eq(text_of(C_LINES), H.read_file(ws .. '/c.txt'), 'c.txt on disk (the edit is in the buffer only)')
      H.check(vim.bo[bufnr].modified, 'c.txt still modified')
      local code, out, err = H.cli(ws, { 'log', '--json' })
      H.eq(0, code, 'hashline log --json (stderr ' .. err .. ')')
      local edits = vim.tbl_filter(function(op) return op.method ~= 'reconcile' end, vim.fn.json_decode(out).ops)
      H.eq(1, #edits, 'journaled ops: ' .. out)
      H.check(edits[1].agent ~= 'disk' and edits[1].agent ~= '', 'the op names the agent: ' .. vim.inspect(edits[1].agent))
    end)

    test('MCP: the read handed to the model is at most 1.2x the plain rows', function()
      local read = agent.mcp_result(requests, 'read')
      H.check(read, 'no read result in what ' .. name .. ' sent the model')
      local edit = agent.mcp_result(requests, 'edit') or ''
      H.note(string.format('%s: 31-line read handed to the model %d B vs plain hashline read %d B (%.2fx); edit result %d B',
        name, #read, #plain, #read / #plain, #edit))
      H.check(#read <= 1.2 * #plain, string.format('read result %d B > 1.2 x %d B: %s', #read, #plain, read:sub(1, 400)))
      H.check(read:find(TYPED_C, 1, true), 'the read the model got shows the unsaved typing')
    end)
  end

  if setup_env then
    test('MCP: setup --undo (after the CLI rewrote its config) leaves no trace; a second says nothing is left', function()
      local rc, out = cli_env(ws, { 'setup', name, '--user', '--undo' }, setup_env)
      H.eq(0, rc, 'hashline setup --undo: ' .. out)
      local after = files_under(home)
      for path in pairs(after) do
        H.check(not path:find('hashline%-backup') and not path:find('hashline%-tmp'), 'left behind: ' .. path)
      end
      for _, path in ipairs(agent.mcp_config_files(setup_env)) do
        local bytes = H.read_file(path)
        local rel = path:sub(#home + 2)
        if bytes then
          H.check(not agent.registers_hashline(bytes), rel .. ' still registers hashline after --undo: ' .. bytes:sub(1, 800))
        end
        H.check(bytes ~= nil or config_files[rel] == nil, rel .. ' existed before setup and is gone after --undo')
      end
      local rc2, out2 = cli_env(ws, { 'setup', name, '--user', '--undo' }, setup_env)
      H.eq(0, rc2, 'second hashline setup --undo: ' .. out2)
      H.check(out2:lower():find('nothing', 1, true), 'the second --undo says nothing is left: ' .. out2)
    end)
  end
  H.reset()
end

-- The checks for one agent CLI; each PASS/FAIL line starts with its name.
local function suite(name, agent)
  local function test(title, fn)
    return H.test(name .. ': ' .. title, fn)
  end

  -- 1. The CLI alone: the fake endpoint drives it and its writes reach the disk.
  local solo_ok = test(agent.tools .. ', scripted by the fake model, reach the disk (no editor)', function()
    H.check(agent.bin, 'no ' .. name .. ' binary given')
    local ws = H.work .. '/' .. name .. '/solo/ws'
    setup_workspace(ws)
    check_run(agent, run_agent(agent, ws, H.work .. '/' .. name .. '/solo'))
    H.eq(text_of(A_AFTER), H.read_file(ws .. '/a.txt'), 'a.txt on disk')
    H.eq(text_of(B_AFTER), H.read_file(ws .. '/b.txt'), 'b.txt on disk')
  end)

  -- 2. The CLI beside Neovim.
  local ws = H.work .. '/' .. name .. '/nvim/ws'
  local bufs, typed_chars = {}, 0
  local notes = {} -- the sidecar's hashline/reconciled notifications, in order
  local function want_a()
    local lines = { TYPED_A .. string.rep('x', typed_chars) }
    vim.list_extend(lines, A_AFTER)
    return lines
  end
  local function want_b()
    local lines = { TYPED_B }
    vim.list_extend(lines, B_AFTER)
    return lines
  end

  local ready = solo_ok and test('a.txt and b.txt open in Neovim with unsaved typing at the top, mirrored', function()
    setup_workspace(ws)
    vim.cmd('cd ' .. vim.fn.fnameescape(ws))
    H.setup()
    bufs.a = H.open(ws .. '/a.txt')
    -- Record hashline/reconciled (then hand it to the plugin's handler, if any).
    local client = require('hashline').client(bufs.a)
    local method = 'hashline/reconciled'
    local previous = client.handlers[method]
    client.handlers[method] = function(err, params, ctx, config)
      table.insert(notes, params)
      local handler = previous or vim.lsp.handlers[method]
      if handler then
        return handler(err, params, ctx, config)
      end
    end
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('ggO' .. TYPED_A .. '<Esc>', true, false, true), 'xt', false)
    bufs.b = H.open(ws .. '/b.txt')
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('ggO' .. TYPED_B .. '<Esc>', true, false, true), 'xt', false)
    H.eq(TYPED_A, H.lines(bufs.a)[1], 'a.txt first line')
    H.eq(TYPED_B, H.lines(bufs.b)[1], 'b.txt first line')
    H.check(vim.bo[bufs.a].modified and vim.bo[bufs.b].modified, 'both buffers modified')
    H.assert_mirrored(bufs.a, 'a.txt')
    H.assert_mirrored(bufs.b, 'b.txt')
    H.eq(text_of(A_LINES), H.read_file(ws .. '/a.txt'), 'a.txt on disk before the agent')
  end)

  local ran = ready and test('runs while the user keeps typing into a.txt', function()
    -- The user types a character at the end of a.txt's first line every 10 ms while the agent runs.
    local typer = vim.loop.new_timer()
    typer:start(10, 10, vim.schedule_wrap(function()
      local first = H.lines(bufs.a)[1]
      vim.api.nvim_buf_set_text(bufs.a, 0, #first, 0, #first, { 'x' })
      typed_chars = typed_chars + 1
    end))
    local ok, err = pcall(function()
      check_run(agent, run_agent(agent, ws, H.work .. '/' .. name .. '/nvim'))
      -- Keep typing until both merged edits reached the buffers (or 20 s passed).
      H.wait(20000, function()
        return H.lines(bufs.a)[38] == A_NEW and H.lines(bufs.b)[29] == B_NEW
      end)
    end)
    typer:stop()
    typer:close()
    H.check(ok, err)
    H.note(string.format('%s: %d characters typed into a.txt while the agent ran', name, typed_chars))
  end)

  if ran then
    test('the typing survives and the agent\'s changes are in the buffers', function()
      H.check(H.wait(15000, function()
        return vim.deep_equal(want_a(), H.lines(bufs.a)) and vim.deep_equal(want_b(), H.lines(bufs.b))
      end), 'buffers after the agent\'s writes:\na.txt ' .. vim.inspect(H.lines(bufs.a)) .. '\nwant ' .. vim.inspect(want_a())
        .. '\nb.txt ' .. vim.inspect(H.lines(bufs.b)) .. '\nwant ' .. vim.inspect(want_b()))
      H.assert_mirrored(bufs.a, 'a.txt')
      H.assert_mirrored(bufs.b, 'b.txt')
    end)

    test('the disk holds the agent\'s changes and none of the typing; buffers stay modified', function()
      H.eq(text_of(A_AFTER), H.read_file(ws .. '/a.txt'), 'a.txt on disk')
      H.eq(text_of(B_AFTER), H.read_file(ws .. '/b.txt'), 'b.txt on disk')
      H.check(vim.bo[bufs.a].modified, 'a.txt still modified (its typing is unsaved)')
      H.check(vim.bo[bufs.b].modified, 'b.txt still modified (its typing is unsaved)')
    end)

    local ops = {}
    local function reconcile_ops()
      local code, out, err = H.cli(ws, { 'log', '--json' })
      H.eq(0, code, 'hashline log --json (stderr ' .. err .. ')')
      local found = {}
      for _, op in ipairs(vim.fn.json_decode(out).ops) do
        if op.method == 'reconcile' then
          table.insert(found, op)
        end
      end
      return found
    end

    local logged = test('hashline log: one reconcile op by agent disk per file, one one-line hunk each', function()
      local all = reconcile_ops()
      for _, file in ipairs({ 'a.txt', 'b.txt' }) do
        local mine = vim.tbl_filter(function(op) return vim.endswith(op.name, file) end, all)
        H.eq(1, #mine, 'reconcile ops on ' .. file .. ' (log: ' .. vim.inspect(all) .. ')')
        local op = mine[1]
        H.eq('disk', op.agent, file .. ' op agent')
        H.check(op.inEffect, file .. ' op in effect')
        H.eq(1, #op.hunks, file .. ' hunks: ' .. vim.inspect(op.hunks))
        H.eq({ 1, 1 }, { op.hunks[1].removedLines, op.hunks[1].lines }, file .. ' hunk -removed +added')
        ops[file] = op
      end
    end)

    if logged then
      test('hashline/reconciled: one "merged" notification per file naming the journaled op', function()
        for _, file in ipairs({ 'a.txt', 'b.txt' }) do
          local mine = vim.tbl_filter(function(n) return vim.endswith(n.path or '', '/' .. file) end, notes)
          H.eq(1, #mine, file .. ' notifications: ' .. vim.inspect(notes))
          local n = mine[1]
          H.eq({ 'merged', ops[file].op, 'disk', 1, false },
            { n.kind, n.op, n.agent, n.hunks, n.bufferMatchesDisk }, file .. ' kind, op, agent, hunks, bufferMatchesDisk')
          H.check(type(n.version) == 'number', file .. ' notification version: ' .. vim.inspect(n.version))
          H.check(n.conflicts == nil or n.conflicts == vim.NIL or #n.conflicts == 0, file .. ' conflicts: ' .. vim.inspect(n.conflicts))
        end
      end)

      test('hashline undo of a.txt\'s reconcile op restores the pre-agent line, typing intact', function()
        local code, out, err = H.cli(ws, { 'undo', tostring(ops['a.txt'].op) })
        H.eq(0, code, 'hashline undo (stdout ' .. out .. ', stderr ' .. err .. ')')
        local want = want_a()
        want[38] = A_OLD
        H.check(H.wait(10000, function() return vim.deep_equal(want, H.lines(bufs.a)) end),
          'a.txt after undo: ' .. vim.inspect(H.lines(bufs.a)))
        H.assert_mirrored(bufs.a, 'a.txt')
      end)

      test(':write of b.txt is the editor\'s own save, not a foreign write', function()
        local before = #reconcile_ops()
        -- A "file changed since reading" prompt would block headless Neovim: a libuv timer (which
        -- runs while Neovim waits for the answer) answers it 'n' and the check fails.
        local writing, prompted = true, false
        local watchdog = vim.loop.new_timer()
        watchdog:start(5000, 0, function()
          if writing then
            prompted = true
            vim.api.nvim_input('n')
          end
        end)
        local ok, err = pcall(vim.api.nvim_buf_call, bufs.b, function() vim.cmd('silent write') end)
        writing = false
        watchdog:close()
        H.check(not prompted, ':write asked "the file has been changed since reading it" (Neovim was not told of the merged write)')
        H.check(ok, ':write failed: ' .. tostring(err))
        H.eq(text_of(want_b()), H.read_file(ws .. '/b.txt'), 'b.txt on disk after :write')
        H.check(not vim.bo[bufs.b].modified, 'b.txt not modified after :write')
        -- Give the watcher time to see the save; it must journal nothing.
        vim.wait(1500)
        H.eq(before, #reconcile_ops(), 'reconcile ops after the save')
        H.eq(want_b(), H.lines(bufs.b), 'b.txt buffer after the save')
      end)
    end
  end
  H.reset()
  mcp_suite(name, agent)
end

for _, name in ipairs(vim.split(os.getenv('AGENTS') or 'claude,codex,gemini', ',', { trimempty = true })) do
  local agent = AGENTS[name]
  if agent then
    suite(name, agent)
  else
    H.record(false, name .. ': no such agent (AGENTS lists claude, codex, gemini)')
  end
end
vim.cmd('qall!')
