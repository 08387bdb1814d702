-- Headless Neovim (each tested version) with the hashline plugin (setup{} starts `hashline lsp`
-- and attaches the buffer). The agent is the `hashline` CLI, a separate process that finds the
-- sidecar; the user types with nvim_buf_set_lines and reviews with :HashlineReview, the quickfix
-- mappings and :HashlineAccept. Writes "PASS name" / "FAIL name: why" lines to $RESULTS
-- (common.lua), then quits.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local ws = H.work .. '/ws'
local path = ws .. '/c.txt'

local disk_text = H.numbered(60)
vim.fn.mkdir(ws .. '/.git', 'p')
H.write_file(path, disk_text)

local hashline = require('hashline')
local review = require('hashline.review')
local bufnr, op
local expected = H.numbered_lines(60)

local function lines() return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false) end
local function expect_lines(want)
  local got = lines()
  assert(vim.deep_equal(got, want), 'buffer: ' .. vim.inspect(got))
end
-- The line numbers of the review signs in the buffer, sorted.
local function sign_lines()
  local placed = vim.fn.sign_getplaced(bufnr, { group = review.sign_group })
  local out = {}
  for _, sign in ipairs(placed[1] and placed[1].signs or {}) do
    assert(sign.name == review.sign_name, 'foreign sign ' .. vim.inspect(sign))
    table.insert(out, sign.lnum)
  end
  table.sort(out)
  return out
end
local function wait_signs(want)
  local ok = H.wait(10000, function() return vim.deep_equal(sign_lines(), want) end)
  assert(ok, 'signs at ' .. vim.inspect(sign_lines()) .. ', want ' .. vim.inspect(want))
end
local function pending_lines()
  local result = assert(hashline.pending({ bufnr = bufnr }))
  local out = {}
  for _, file in ipairs(result.files or {}) do
    for _, hunk in ipairs(file.hunks) do table.insert(out, hunk.line) end
  end
  return out
end

local ok = H.test('attach-with-setup', function()
  hashline.setup({
    cmd = { H.bin, 'lsp', '--log-file', H.work .. '/hashline.log', '--log-level', 'debug' },
    review_debounce = 50,
  })
  vim.cmd('edit ' .. path)
  bufnr = vim.api.nvim_get_current_buf()
  assert(H.wait(10000, function()
    local client = hashline.client(bufnr)
    return client ~= nil and client.initialized and client.attached_buffers[bufnr]
  end), 'not attached')
end)

ok = ok and H.test('agent-op-of-3-hunks-gets-3-signs', function()
  local code, out, err = H.cli(ws, { 'read', 'c.txt', '--session', 'agent' })
  assert(code == 0, 'read: ' .. out .. err)
  code, out, err = H.cli(ws, { 'replace', 'c.txt', '--session', 'agent', '--agent', 'bot', '--edits', '-' },
    vim.fn.json_encode({ { old = 'line 10\n', new = 'H1\n' }, { old = 'line 30\n', new = 'H2\n' },
      { old = 'line 50\n', new = 'H3\n' } }))
  assert(code == 0, 'replace: ' .. out .. err)
  expected[10], expected[30], expected[50] = 'H1', 'H2', 'H3'
  expect_lines(expected)
  assert(H.read_file(path) == disk_text, 'disk changed')
  wait_signs({ 10, 30, 50 })
  local log = assert(hashline.log(bufnr))
  op = tostring(log.ops[#log.ops].op)
end)

ok = ok and H.test('user-types-above-hunk-1-signs-move', function()
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { 'typed 1', 'typed 2' })
  table.insert(expected, 1, 'typed 2')
  table.insert(expected, 1, 'typed 1')
  expect_lines(expected)
  wait_signs({ 12, 32, 52 })
  -- and the refresh from the server (debounced after the typing) agrees
  assert(H.wait(10000, function() return vim.deep_equal(pending_lines(), { 12, 32, 52 }) end),
    'server sees pending at ' .. vim.inspect(pending_lines()))
  wait_signs({ 12, 32, 52 })
end)

ok = ok and H.test('review-quickfix-lists-3-hunks-at-current-lines', function()
  vim.cmd('HashlineReview')
  local items = vim.fn.getqflist()
  assert(#items == 3, vim.inspect(items))
  local want = { { 12, '#1' }, { 32, '#2' }, { 52, '#3' } }
  for i, item in ipairs(items) do
    assert(item.bufnr == bufnr, 'entry ' .. i .. ' names buffer ' .. item.bufnr)
    assert(item.lnum == want[i][1], 'entry ' .. i .. ' at line ' .. item.lnum)
    local id = op .. want[i][2]
    assert(item.text:sub(1, #'bot · +1 −1 · ') == 'bot · +1 −1 · ', 'entry ' .. i .. ' text: ' .. item.text)
    assert(item.text:sub(-(#id + 2)) == '(' .. id .. ')', 'entry ' .. i .. ' text: ' .. item.text)
  end
  assert(items[1].text:find('H1', 1, true), items[1].text)
  assert(vim.bo.buftype == 'quickfix', 'the quickfix window is not current')
  assert(vim.fn.getqflist({ title = 1 }).title == review.qf_title, 'title')
end)

ok = ok and H.test('reject-hunk-1-with-quickfix-mapping', function()
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.api.nvim_feedkeys('r', 'x', false)
  expected[12] = 'line 10'
  expect_lines(expected)
  assert(vim.bo[bufnr].modified, 'the buffer is no longer unsaved')
  assert(H.read_file(path) == disk_text, 'disk changed')
  wait_signs({ 32, 52 })
  local items = vim.fn.getqflist()
  assert(#items == 2 and items[1].text:find(op .. '#2', 1, true), 'review list: ' .. vim.inspect(items))
end)

ok = ok and H.test('accept-hunk-3-with-quickfix-mapping', function()
  vim.api.nvim_win_set_cursor(0, { 2, 0 }) -- hunk 3 is the second entry now
  vim.api.nvim_feedkeys('a', 'x', false)
  wait_signs({ 32 })
  local result = assert(hashline.pending({ bufnr = bufnr }))
  assert(result.count == 1 and result.files[1].hunks[1].id == op .. '#2', vim.inspect(result))
  expect_lines(expected) -- accepting changes no text
  local items = vim.fn.getqflist()
  assert(#items == 1, 'review list: ' .. vim.inspect(items))
end)

ok = ok and H.test('accept-command-under-cursor', function()
  vim.cmd('wincmd p')
  assert(vim.api.nvim_get_current_buf() == bufnr, 'back in the file')
  vim.api.nvim_win_set_cursor(0, { 32, 0 })
  vim.cmd('HashlineAccept')
  wait_signs({})
  assert(assert(hashline.pending({ bufnr = bufnr })).count == 0, 'still pending')
end)

-- An agent op through the CLI (read + replace by session `agent`); returns its op id.
local function agent_op(edits)
  local code, out, err = H.cli(ws, { 'read', 'c.txt', '--session', 'agent' })
  assert(code == 0, 'read: ' .. out .. err)
  code, out, err = H.cli(ws, { 'replace', 'c.txt', '--session', 'agent', '--edits', '-' }, vim.fn.json_encode(edits))
  assert(code == 0, 'replace: ' .. out .. err)
  local log = assert(hashline.log(bufnr))
  return tostring(log.ops[#log.ops].op)
end

ok = ok and H.test('quickfix-R-rejects-and-A-accepts-whole-ops', function()
  local op2 = agent_op({ { old = 'line 54\n', new = 'R54\n' }, { old = 'line 58\n', new = 'R58\n' } })
  local op3 = agent_op({ { old = 'line 15\n', new = 'A15\n' }, { old = 'line 25\n', new = 'A25\n' } })
  expected[56], expected[60], expected[17], expected[27] = 'R54', 'R58', 'A15', 'A25'
  expect_lines(expected)
  wait_signs({ 17, 27, 56, 60 })
  vim.cmd('HashlineReview')
  local items = vim.fn.getqflist()
  assert(#items == 4 and items[1].text:find(op2 .. '#1', 1, true), vim.inspect(items))
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.api.nvim_feedkeys('R', 'x', false)
  expected[56], expected[60] = 'line 54', 'line 58'
  expect_lines(expected)
  wait_signs({ 17, 27 })
  items = vim.fn.getqflist()
  assert(#items == 2 and items[1].text:find(op3 .. '#1', 1, true), vim.inspect(items))
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.api.nvim_feedkeys('A', 'x', false)
  wait_signs({})
  assert(#vim.fn.getqflist() == 0, 'review list not empty')
  expect_lines(expected)
end)

ok = ok and H.test('quickfix-r-on-a-hunk-the-user-changed-is-refused', function()
  local op4 = agent_op({ { old = 'line 35\n', new = 'Q35\n' } })
  expected[37] = 'Q35'
  expect_lines(expected)
  vim.cmd('wincmd p')
  vim.api.nvim_buf_set_lines(bufnr, 36, 37, false, { 'Q35 and the user' })
  expected[37] = 'Q35 and the user'
  vim.cmd('HashlineReview')
  local items = vim.fn.getqflist()
  assert(#items == 1 and items[1].text:find(op4 .. '#1', 1, true), vim.inspect(items))
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.api.nvim_feedkeys('r', 'x', false)
  expect_lines(expected)
  local result = assert(hashline.reject(op4 .. '#1'))
  assert(result.status == 'refused' and result.error.code == 'CONFLICT', vim.inspect(result))
  expect_lines(expected)
  assert(assert(hashline.pending({ bufnr = bufnr })).count == 1, 'the hunk is no longer pending')
  assert(hashline.accept(op4).status == 'ok', 'accept')
  wait_signs({})
  vim.cmd('wincmd p')
  assert(vim.api.nvim_get_current_buf() == bufnr, 'back in the file')
end)

-- The applyEdit params as Neovim received them, through the plugin's handler.
local attach = require('hashline.attach')
local seen
local original = attach.apply_edit_handler
attach.apply_edit_handler = function(err, params, ctx, cfg)
  seen = params
  return original(err, params, ctx, cfg)
end

ok = ok and H.test('confirm-edit-applies-with-resolving-annotations', function()
  assert(hashline.read(bufnr, { session = 'agent2' }).status == 'ok', 'read')
  local result = assert(hashline.replace(bufnr, { { old = 'line 20\n', new = 'C20\n' } },
    { session = 'agent2', confirm = true }))
  assert(result.status == 'applied', vim.inspect(result))
  assert(result.confirmation == 'requested', 'confirmation: ' .. tostring(result.confirmation))
  local annotations = seen.edit.changeAnnotations
  assert(type(annotations) == 'table', 'no changeAnnotations: ' .. vim.inspect(seen.edit))
  local edits = seen.edit.documentChanges[1].edits
  assert(#edits > 0, 'no edits')
  for _, edit in ipairs(edits) do
    local annotation = annotations[edit.annotationId]
    assert(annotation and annotation.needsConfirmation == true, 'unresolved ' .. tostring(edit.annotationId))
  end
  expected[22] = 'C20'
  expect_lines(expected)
  wait_signs({ 22 })
end)

ok = ok and H.test('confirm-edit-declined-is-refused', function()
  local asked = 0
  require('hashline.config').get().confirm_prompt = function(params)
    asked = asked + 1
    assert(params.edit.changeAnnotations, 'prompted for an edit without annotations')
    return false
  end
  local result = assert(hashline.replace(bufnr, { { old = 'line 40\n', new = 'C40\n' } },
    { session = 'agent2', confirm = true }))
  require('hashline.config').get().confirm_prompt = nil
  assert(result.status == 'refused' and result.error.code == 'EDITOR_REJECTED', vim.inspect(result))
  assert(tostring(result.error.hint):find('declined', 1, true), vim.inspect(result.error))
  assert(asked == 1, 'asked ' .. asked .. ' times')
  expect_lines(expected)
  wait_signs({ 22 })
end)

ok = ok and H.test('plain-edit-is-not-prompted', function()
  local asked = 0
  require('hashline.config').get().confirm_prompt = function() asked = asked + 1 return false end
  local result = assert(hashline.replace(bufnr, { { old = 'line 41\n', new = 'P41\n' } }, { session = 'agent2' }))
  require('hashline.config').get().confirm_prompt = nil
  assert(result.status == 'applied' and result.confirmation == 'off', vim.inspect(result))
  assert(asked == 0, 'a plain edit was prompted')
  expected[43] = 'P41'
  expect_lines(expected)
end)

ok = ok and H.test('cli-confirm-flag-sends-annotations', function()
  seen = nil
  local code, out, err = H.cli(ws, { 'read', 'c.txt', '--session', 'agent3' })
  assert(code == 0, 'read: ' .. out .. err)
  code, out, err = H.cli(ws, { '--confirm', 'replace', 'c.txt', '--session', 'agent3', '--old', 'line 45',
    '--new', 'K45', '--json' })
  assert(code == 0, 'replace: ' .. out .. err)
  local result = vim.fn.json_decode(out)
  assert(result.confirmation == 'requested', 'confirmation: ' .. tostring(result.confirmation))
  assert(seen and seen.edit.changeAnnotations, 'the applyEdit had no annotations')
  expected[47] = 'K45'
  expect_lines(expected)
end)

-- With confirm_prompt unset: 0.12+ asks (the plugin's own confirm(), since a "No" in Neovim's
-- dialog is answered applied=true) and a "No" is refused; older versions apply without asking.
ok = ok and H.test('confirm-default-of-this-version', function()
  local answers, prompts = {}, {}
  local real_confirm = vim.fn.confirm
  vim.fn.confirm = function(msg, ...)
    table.insert(prompts, msg)
    return table.remove(answers, 1) or 1
  end
  local function send(old, new)
    assert(hashline.read(bufnr, { session = 'agent4' }).status == 'ok', 'read')
    return assert(hashline.replace(bufnr, { { old = old, new = new } }, { session = 'agent4', confirm = true }))
  end
  local okc, err = pcall(function()
    if vim.fn.has('nvim-0.12') == 1 then
      answers = { 2 } -- Decline
      local declined = send('line 48\n', 'D48\n')
      assert(declined.status == 'refused' and declined.error.code == 'EDITOR_REJECTED', vim.inspect(declined))
      assert(#prompts == 1 and prompts[1]:find('hashline: apply', 1, true), 'prompts: ' .. vim.inspect(prompts))
      expect_lines(expected)
      answers = { 1 } -- Apply
      local accepted = send('line 49\n', 'A49\n')
      assert(accepted.status == 'applied', vim.inspect(accepted))
      assert(#prompts == 2, 'asked once per edit, not again by Neovim: ' .. vim.inspect(prompts))
      expected[51] = 'A49'
    else
      local applied = send('line 49\n', 'A49\n')
      assert(applied.status == 'applied', vim.inspect(applied))
      assert(#prompts == 0, 'asked on a Neovim that applies without asking: ' .. vim.inspect(prompts))
      expected[51] = 'A49'
    end
    expect_lines(expected)
  end)
  vim.fn.confirm = real_confirm
  if not okc then
    error(err, 0)
  end
end)

H.test('checkhealth-clean', function()
  vim.cmd('checkhealth hashline')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  assert(text:find('OK', 1, true), 'no OK in: ' .. text)
  assert(not text:find('ERROR', 1, true) and not text:find('WARN', 1, true), 'warnings or errors in: ' .. text)
end)

H.finish()
