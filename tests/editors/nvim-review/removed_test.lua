-- Before and after in Neovim (issue 34): headless Neovim with the hashline plugin; an agent (the
-- `hashline` CLI, session `agent`, agent `claude`) replaces 4 lines by 2, deletes one line and
-- replaces 10 lines by 1 in the unsaved buffer. The lines each hunk removed are virtual lines
-- (extmark virt_lines, DiffDelete) above it, the long one folded; they follow the user's typing;
-- :HashlineRemoved all / off / on switch them; :HashlineDiff op#k and :HashlineDiff op open the
-- text before ↔ the live buffer in diff mode; :HashlineReject and :HashlineAccept say in words
-- what happened. Writes "PASS name" / "FAIL name: why" lines to $RESULTS (common.lua), then quits.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local ws = H.work .. '/ws-removed'
local path = ws .. '/app.txt'
local disk_text = H.numbered(60)
vim.fn.mkdir(ws .. '/.git', 'p')
H.write_file(path, disk_text)

local hashline = require('hashline')
local review = require('hashline.review')
local bufnr, op
local typed = { 'typed 1', 'typed 2' }

-- The removed lines' marks by 1-based buffer line: { [line] = { 'text', ... } }.
local function marks()
  local out = {}
  for _, mark in ipairs(review.removed_marks(bufnr)) do
    assert(mark.hl == 'DiffDelete', 'highlight ' .. tostring(mark.hl))
    out[mark.row + 1] = mark.lines
  end
  return out
end
local function wait_marks(want, what)
  local ok = H.wait(10000, function() return vim.deep_equal(marks(), want) end)
  assert(ok, (what or 'marks') .. ': ' .. vim.inspect(marks()) .. ', want ' .. vim.inspect(want))
end
local function removed(from, to)
  local out = {}
  for i = from, to do table.insert(out, '- line ' .. i) end
  return out
end
-- Messages the plugin shows.
local messages = {}
local real_notify = vim.notify
vim.notify = function(msg, level, o)
  table.insert(messages, msg)
  return real_notify(msg, level, o)
end

local ok = H.test('attach', function()
  hashline.setup({
    cmd = { H.bin, 'lsp', '--log-file', H.work .. '/hashline-removed.log', '--log-level', 'debug' },
    review_debounce = 50,
    review_removed_max = 4,
  })
  vim.cmd('edit ' .. path)
  bufnr = vim.api.nvim_get_current_buf()
  H.wait_attached(bufnr, 'app.txt')
end)

ok = ok and H.test('removed-lines-are-virtual-lines-above-each-hunk', function()
  local code, out, err = H.cli(ws, { 'read', 'app.txt', '--session', 'agent' })
  assert(code == 0, 'read: ' .. out .. err)
  local edits = {
    { old = 'line 10\nline 11\nline 12\nline 13\n', new = 'S1\nS2\n' },
    { old = 'line 30\n', new = '' },
    { old = table.concat(H.numbered_lines(49), '\n', 40) .. '\n', new = 'ONE\n' },
  }
  code, out, err = H.cli(ws, { 'replace', 'app.txt', '--session', 'agent', '--agent', 'claude', '--edits', '-' },
    vim.fn.json_encode(edits))
  assert(code == 0, 'replace: ' .. out .. err)
  op = tostring(assert(hashline.log(bufnr)).ops[1].op)
  -- Now: 1-9, S1, S2 (10-11), line 14..29 (12-27), line 31..39 (28-36), ONE (37), line 50.. (38-)
  assert(H.lines(bufnr)[10] == 'S1' and H.lines(bufnr)[37] == 'ONE', vim.inspect(H.lines(bufnr)))
  assert(H.read_file(path) == disk_text, 'disk changed')
  local folded = removed(40, 42)
  table.insert(folded, '  … 7 more removed lines of claude · line 37 (:HashlineRemoved all, :HashlineDiff ' .. op .. '#3)')
  wait_marks({ [10] = removed(10, 13), [28] = removed(30, 30), [37] = folded })
  for _, mark in ipairs(review.removed_marks(bufnr)) do
    assert(mark.above, 'a mark below its line: ' .. vim.inspect(mark))
  end
end)

ok = ok and H.test('removed-lines-follow-the-typing', function()
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, typed)
  local now = marks() -- extmarks move with the text at once
  assert(now[12] and now[30] and now[39], 'after typing: ' .. vim.inspect(now))
  assert(vim.deep_equal(now[12], removed(10, 13)), vim.inspect(now[12]))
end)

ok = ok and H.test('HashlineRemoved-all-off-on', function()
  vim.cmd('HashlineRemoved all')
  H.wait(5000, function() return marks()[39] and #marks()[39] == 10 end)
  assert(vim.deep_equal(marks()[39], removed(40, 49)), vim.inspect(marks()[39]))
  vim.cmd('HashlineRemoved off')
  assert(next(marks()) == nil, 'marks while off: ' .. vim.inspect(marks()))
  vim.cmd('HashlineRemoved on')
  assert(#marks()[39] == 4 and vim.deep_equal(marks()[12], removed(10, 13)), vim.inspect(marks()))
end)

ok = ok and H.test('HashlineDiff-of-one-hunk', function()
  local tab = vim.api.nvim_get_current_tabpage()
  vim.cmd('HashlineDiff ' .. op .. '#1')
  local wins = vim.api.nvim_tabpage_list_wins(0)
  assert(vim.api.nvim_get_current_tabpage() ~= tab and #wins == 2, 'windows: ' .. #wins)
  local left, right = vim.api.nvim_win_get_buf(wins[1]), vim.api.nvim_win_get_buf(wins[2])
  assert(right == bufnr, 'the right side is not the live buffer')
  assert(vim.wo[wins[1]].diff and vim.wo[wins[2]].diff, 'not in diff mode')
  local want = H.lines(bufnr)
  for _ = 1, 2 do table.remove(want, 12) end -- S1, S2
  for i = 13, 10, -1 do table.insert(want, 12, 'line ' .. i) end
  assert(vim.deep_equal(H.lines(left), want), 'before: ' .. vim.inspect(H.lines(left)))
  assert(not vim.bo[left].modifiable, 'the before side is editable')
  assert(vim.api.nvim_buf_get_name(left):find('hashline://before/app.txt', 1, true), vim.api.nvim_buf_get_name(left))
  vim.cmd('tabclose')
end)

ok = ok and H.test('HashlineDiff-of-the-op-is-the-text-before-the-agent', function()
  vim.cmd('HashlineDiff ' .. op)
  local wins = vim.api.nvim_tabpage_list_wins(0)
  local left = vim.api.nvim_win_get_buf(wins[1])
  local want = vim.list_extend(vim.list_extend({}, typed), H.numbered_lines(60))
  assert(vim.deep_equal(H.lines(left), want), 'before: ' .. vim.inspect(H.lines(left)))
  -- the user's typing is on both sides: it is not the agent's
  assert(H.lines(vim.api.nvim_win_get_buf(wins[2]))[1] == 'typed 1', 'right side')
  vim.cmd('tabclose')
  assert(vim.api.nvim_get_current_buf() == bufnr, 'back in the file')
end)

-- The review's cached hunk `id` at `line` (a refresh after the last change came back).
local function wait_hunk_at(id, line)
  assert(H.wait(10000, function()
    for _, hunk in ipairs(review.hunks(bufnr)) do
      if hunk.id == id and hunk.line == line then return true end
    end
    return false
  end), id .. ' not at line ' .. line .. ': ' .. vim.inspect(review.hunks(bufnr)))
end

ok = ok and H.test('reject-and-keep-say-what-happened-in-words', function()
  vim.api.nvim_win_set_cursor(0, { 12, 0 })
  messages = {}
  vim.cmd('HashlineReject')
  assert(H.lines(bufnr)[12] == 'line 10', 'not rejected: ' .. vim.inspect(H.lines(bufnr)))
  assert(vim.tbl_contains(messages, "Rejected claude's edit in app.txt (lines 12–13)"), vim.inspect(messages))
  wait_hunk_at(op .. '#2', 32)
  vim.cmd('HashlineAccept ' .. op .. '#2')
  assert(vim.tbl_contains(messages, "Kept claude's edit in app.txt (line 32)"), vim.inspect(messages))
  -- only hunk 3 still shows what it removed
  assert(H.wait(10000, function()
    local now = marks()
    return vim.tbl_count(now) == 1 and now[41] and #now[41] == 4
  end), 'after reject and keep: ' .. vim.inspect(marks()))
  -- the reject is the user's decision in the journal, not a hunk to review
  local code, log = H.cli_json(ws, { 'log' })
  assert(code == 0, 'log')
  local decisions = 0
  for _, entry in ipairs(log.ops) do
    if entry.method == 'reject' then
      decisions = decisions + 1
      assert(entry.agent == 'user', 'agent ' .. tostring(entry.agent))
      for _, hunk in ipairs(entry.hunks) do
        assert(hunk.state == 'decision', 'the reject is ' .. hunk.state)
      end
    end
  end
  assert(decisions == 1, 'reject ops: ' .. decisions)
end)

ok = ok and H.test('quickfix-labels-are-plain', function()
  vim.cmd('HashlineReview')
  local items = vim.fn.getqflist()
  assert(#items == 1, vim.inspect(items))
  assert(items[1].text == 'claude · +1 −10 · ONE (' .. op .. '#3)', items[1].text)
  vim.cmd('cclose')
end)

H.finish()
