-- The editor as seen from outside and the user commands: the `hashline` CLI reaches this Neovim's
-- unsaved buffer through the agent socket (read sees the unsaved text, edit lands in the buffer
-- and not on disk), :HashlineUndo reverts the last agent edit (and refuses with CONFLICT when the
-- user changed those lines since), :HashlineStatus and :HashlineLog show the sidecar's answers.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

local root = H.work .. '/cli'
local path = root .. '/proj/src/main.txt'
local disk_text = 'line one\nline two\nline three\nline four\nline five\n'
local hashline, bufnr
local messages = {}

vim.notify = function(msg, level)
  table.insert(messages, { msg = msg, level = level or vim.log.levels.INFO })
end

local function take_messages()
  local out = messages
  messages = {}
  return out
end

local function errors_in(list)
  local errs = {}
  for _, m in ipairs(list) do
    if m.level >= vim.log.levels.WARN then
      table.insert(errs, m.msg)
    end
  end
  return errs
end

-- The CLI in the project dir (H.cli: without blocking the event loop, since the sidecar calls
-- back into this Neovim while the CLI waits). Returns exit code, stdout, stderr.
local function cli(args, stdin)
  return H.cli(root .. '/proj', args, stdin)
end

-- Exit 2 with usage text = the subcommand does not exist yet.
local function need_cli(what, code, stdout, stderr)
  local said = (stderr .. stdout):lower()
  if code == 2 and (said:find('usage', 1, true) or said:find('unknown command', 1, true)) then
    H.pending('CLI lacks `' .. what .. '` (' .. vim.trim(stderr):sub(1, 120) .. ')')
  end
  H.eq(0, code, what .. ' exit code (stderr: ' .. stderr .. ', stdout: ' .. stdout .. ')')
  local ok, decoded = pcall(vim.fn.json_decode, stdout)
  H.check(ok and type(decoded) == 'table', what .. ' --json output is not JSON: ' .. stdout)
  return decoded
end

H.run({
  { 'open-with-unsaved-changes', function()
    vim.fn.mkdir(root .. '/proj/.git', 'p')
    hashline = H.setup()
    bufnr = H.open(path, disk_text)
    H.type_keys('ggIunsaved <Esc>')
    H.eq('unsaved line one', H.lines(bufnr)[1], 'typed')
    H.assert_mirrored(bufnr)
  end },

  { 'HashlineStatus', function()
    take_messages()
    vim.cmd('HashlineStatus')
    local got = take_messages()
    local errs = errors_in(got)
    if #errs > 0 and errs[1]:find('not supported', 1, true) then
      H.pending(errs[1])
    end
    H.eq({}, errs, 'no error message')
    local shown = #got > 0 and got[1].msg or table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    H.check(shown:find('main.txt', 1, true) or shown:find('version', 1, true),
      'status mentions the document: ' .. shown)
    if vim.api.nvim_get_current_buf() ~= bufnr then
      vim.cmd('close')
    end
  end },

  { 'cli-read-sees-unsaved-buffer', function()
    local r = need_cli('read', cli({ 'read', path, '--json', '--session', 'cli-test' }))
    H.eq(vim.lsp.util.buf_versions[bufnr], r.version, 'CLI read comes from the mirror (buffer version)')
    H.eq('unsaved line one', r.lines[1].text, 'CLI read sees the unsaved text')
  end },

  { 'cli-edit-lands-in-buffer', function()
    local r = need_cli('read', cli({ 'read', path, '--json', '--session', 'cli-test' }))
    local edits = vim.fn.json_encode({ { op = 'replace', anchor = r.lines[3].anchor, content = 'THREE via CLI' } })
    local result = need_cli('edit', cli({ 'edit', path, '--json', '--session', 'cli-test' }, edits))
    H.eq('applied', result.status, 'status: ' .. vim.inspect(result))
    H.eq('THREE via CLI', H.lines(bufnr)[3], 'edit landed in the buffer')
    H.eq('unsaved line one', H.lines(bufnr)[1], 'unsaved typing kept')
    H.check(vim.bo[bufnr].modified, 'buffer still modified')
    H.eq(disk_text, H.read_file(path), 'disk untouched')
    H.assert_mirrored(bufnr)
  end },

  { 'cli-stale-anchor-refused', function()
    local r = need_cli('read', cli({ 'read', path, '--json', '--session', 'cli-test' }))
    vim.api.nvim_win_set_cursor(0, { 2, 0 })
    H.type_keys('A (user)<Esc>')                    -- the user changes the line after the read
    local before = H.lsp_text(bufnr)
    local edits = vim.fn.json_encode({ { op = 'replace', anchor = r.lines[2].anchor, content = 'CLI overwrite' } })
    local code, stdout, stderr = cli({ 'edit', path, '--session', 'cli-test', '--edits', edits })
    H.eq(1, code, 'refused edit exits 1 (stderr: ' .. stderr .. ')')
    H.check(vim.startswith(vim.trim(stderr), 'STALE_ANCHOR'), 'error code printed first: ' .. stderr .. stdout)
    H.eq(before, H.lsp_text(bufnr), 'buffer unchanged')
    H.assert_mirrored(bufnr)
  end },

  { 'HashlineUndo-reverts', function()
    local r = H.need('hashline.read', hashline.read(bufnr))
    local before = H.lines(bufnr)
    local result = H.need('hashline.edit', hashline.edit(bufnr, { { op = 'replace', anchor = r.lines[4].anchor,
      content = 'agent line four' } }))
    H.eq('applied', result.status, 'edit status')
    H.eq('agent line four', H.lines(bufnr)[4], 'edit landed')
    take_messages()
    vim.cmd('HashlineUndo')
    local errs = errors_in(take_messages())
    if #errs > 0 and errs[1]:find('not supported', 1, true) then
      H.pending(errs[1])
    end
    H.eq({}, errs, 'no error message')
    H.eq(before, H.lines(bufnr), 'buffer back to before the agent edit')
    H.eq(disk_text, H.read_file(path), 'disk untouched')
    H.assert_mirrored(bufnr)
  end },

  { 'HashlineUndo-conflict-refused', function()
    local r = H.need('hashline.read', hashline.read(bufnr))
    H.eq('applied', H.need('hashline.edit', hashline.edit(bufnr, { { op = 'replace', anchor = r.lines[5].anchor,
      content = 'agent line five' } })).status, 'edit status')
    vim.api.nvim_win_set_cursor(0, { 5, 0 })
    H.type_keys('A, then the user<Esc>')           -- the user edits the agent's line
    local before = H.lsp_text(bufnr)
    local result, err = hashline.undo(bufnr)
    H.need('hashline.undo', result, err)
    H.eq('refused', result.status, 'undo over a user change: ' .. vim.inspect(result))
    H.eq('CONFLICT', result.error and result.error.code, 'error code')
    H.eq(before, H.lsp_text(bufnr), 'nothing clobbered')
  end },

  { 'HashlineLog', function()
    take_messages()
    vim.cmd('HashlineLog')
    local errs = errors_in(take_messages())
    if #errs > 0 and errs[1]:find('not supported', 1, true) then
      H.pending(errs[1])
    end
    H.eq({}, errs, 'no error message')
    local log_buf = vim.fn.bufnr('^hashline://log$')
    H.check(log_buf ~= -1, 'log window opened')
    local text = table.concat(vim.api.nvim_buf_get_lines(log_buf, 0, -1, false), '\n')
    H.check(text:find('main.txt', 1, true), 'journal names the edited file:\n' .. text)
    vim.cmd('close')
  end },
})
