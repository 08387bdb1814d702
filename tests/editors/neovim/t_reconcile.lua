-- Foreign disk writes to files open in Neovim (issue 13, docs/reconcile.md): a buffer with unsaved
-- typing at the top; another program changes the bottom by each of: write-temp-then-rename,
-- in-place write, truncate then write after a pause, `sed -i`, `git checkout`; the buffer ends
-- with both changes, the disk with the writer's, the journal with one `reconcile` op by `disk`
-- whose undo reverts exactly the writer's change. No W12 prompt and no reload drop the typing, and
-- a later :w does not ask "changed since reading it". Clean buffers take the write and stay
-- unmodified; an overlapping write keeps the user's line and is listed as a conflict that can be
-- taken; :w repeated while typing journals nothing; a deleted file leaves the buffer alone; a
-- burst of 200 writes ends in the last one without ever showing an empty buffer.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

local root = H.work .. '/reconcile/proj'
local hashline

local function write_via_rename(path, text)
  H.write_file(path .. '.agent-tmp', text)
  assert(os.rename(path .. '.agent-tmp', path))
end

local function wait_text(bufnr, want, what)
  local ok = H.wait(10000, function()
    return H.lsp_text(bufnr) == want
  end)
  if not ok then
    error((what or 'buffer') .. ': want ' .. vim.inspect(want) .. ', got ' .. vim.inspect(H.lsp_text(bufnr)), 2)
  end
end

-- :w with an 'n' waiting in typeahead: if Neovim asked "changed since reading it", the 'n'
-- answers no and the file keeps its old bytes.
local function write_without_prompt(bufnr, path)
  vim.api.nvim_feedkeys('n', 't', false)
  pcall(vim.cmd, 'write')
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<Esc>', true, false, true), 'xt', false)
  H.eq(H.lsp_text(bufnr), H.read_file(path), ':w wrote the buffer without asking')
end

-- The issue's scenario with one writer; returns the buffer.
local function typing_survives(name, writer)
  local path = root .. '/' .. name
  local original = H.numbered(30)
  local bufnr = H.open(path, original)
  H.type_keys('ggOtyped by the user<Esc>')
  H.check(vim.bo[bufnr].modified, 'typing made the buffer modified')
  H.assert_mirrored(bufnr, 'after typing')
  local theirs = original:gsub('line 29\n', 'line 29 changed by the agent\n')
  writer(path, theirs)
  wait_text(bufnr, 'typed by the user\n' .. theirs, name .. ' merged')
  H.eq(theirs, H.read_file(path), 'disk has the writer\'s text')
  H.check(vim.bo[bufnr].modified, 'still modified: the typing is not saved')
  H.assert_mirrored(bufnr, 'after the merge')
  local ops = H.wait_reconcile_ops(bufnr, 1, 'one reconcile op')
  H.eq('disk', ops[1].agent, 'journaled agent')
  local undone = H.need('hashline.undo', hashline.undo(bufnr, { op = ops[1].op, confirm = false }))
  H.eq('applied', undone.status, 'undo applied: ' .. vim.inspect(undone))
  wait_text(bufnr, 'typed by the user\n' .. original, 'undo reverted exactly the writer\'s change')
  write_without_prompt(bufnr, path)
  vim.cmd('bwipeout!')
end

H.run({
  { 'setup', function()
    vim.fn.mkdir(root .. '/.git', 'p')
    hashline = H.setup({ reconcile = 'merge' })
  end },

  { 'write-temp-then-rename', function()
    typing_survives('rename.txt', write_via_rename)
  end },

  { 'in-place-write', function()
    typing_survives('inplace.txt', H.write_file)
  end },

  { 'truncate-pause-write', function()
    typing_survives('truncate.txt', function(path, theirs)
      H.write_file(path, '')
      vim.wait(200) -- the empty file sits on disk meanwhile
      H.write_file(path, theirs)
    end)
  end },

  { 'sed-in-place', function()
    typing_survives('sed.txt', function()
      H.sh(root, "sed -i 's/^line 29$/line 29 changed by the agent/' sed.txt")
    end)
  end },

  { 'git-checkout', function()
    local theirs = H.numbered(30):gsub('line 29\n', 'line 29 changed by the agent\n')
    os.remove(root .. '/.git')
    vim.fn.delete(root .. '/.git', 'rf')
    H.write_file(root .. '/git.txt', theirs)
    H.sh(root, 'git init -q . && git add git.txt && git -c user.name=t -c user.email=t@t commit -qm agent')
    typing_survives('git.txt', function()
      H.sh(root, 'git checkout -q -- git.txt')
    end)
  end },

  { 'clean-buffer-stays-unmodified', function()
    local path = root .. '/clean.txt'
    local bufnr = H.open(path, H.numbered(5))
    H.assert_mirrored(bufnr, 'opened') -- the sidecar has it (and watches its file)
    write_via_rename(path, H.numbered(6))
    wait_text(bufnr, H.numbered(6), 'clean buffer took the write')
    H.check(H.wait(3000, function()
      return not vim.bo[bufnr].modified
    end), "'modified' is false: the buffer equals the disk")
    vim.cmd('bwipeout!')
  end },

  { 'overlap-is-a-conflict-and-theirs-can-be-taken', function()
    local path = root .. '/conflict.txt'
    local original = H.numbered(20)
    local bufnr = H.open(path, original)
    H.type_keys('3GA by the user<Esc>')
    H.assert_mirrored(bufnr, 'typed')
    local theirs = original:gsub('line 3\n', 'line 3 by the agent\n'):gsub('line 18\n', 'line 18 by the agent\n')
    write_via_rename(path, theirs)
    local mine = original:gsub('line 3\n', 'line 3 by the user\n')
    wait_text(bufnr, (mine:gsub('line 18\n', 'line 18 by the agent\n')), 'non-overlapping part merged, yours kept')
    local listed
    H.check(H.wait(3000, function()
      listed = require('hashline.reconcile').list(bufnr)
      return listed and #(listed.conflicts or {}) == 1
    end), 'one conflict listed: ' .. vim.inspect(listed))
    H.eq('line 3 by the user\n', listed.conflicts[1].ours, 'ours')
    H.eq('line 3 by the agent\n', listed.conflicts[1].theirs, 'theirs')
    vim.cmd('HashlineConflicts')
    H.eq(1, #vim.fn.getqflist(), 'quickfix lists the conflict')
    vim.cmd('cclose')
    vim.cmd('HashlineResolve ' .. listed.conflicts[1].id .. ' theirs')
    wait_text(bufnr, theirs, 'taking theirs')
    vim.cmd('bwipeout!')
  end },

  { 'own-saves-while-typing-journal-nothing', function()
    local path = root .. '/saves.txt'
    local bufnr = H.open(path, H.numbered(10))
    local saves = tonumber(os.getenv('HASHLINE_RECONCILE_SAVES') or '200')
    for i = 1, saves do
      H.type_keys('ggIx<Esc>')
      vim.cmd('silent write')
      if i % 2 == 0 then
        H.type_keys('ggIy<Esc>') -- and keeps typing before the sidecar looks
      end
    end
    vim.cmd('silent write')
    vim.wait(1500) -- longer than every settle and own-save wait
    H.eq(0, #H.reconcile_ops(bufnr), 'no reconcile op journaled for ' .. saves .. ' saves')
    H.check(not vim.bo[bufnr].modified, 'saved')
    vim.cmd('bwipeout!')
  end },

  { 'deleted-file-leaves-the-buffer', function()
    local path = root .. '/deleted.txt'
    local bufnr = H.open(path, H.numbered(3))
    H.type_keys('ggOunsaved<Esc>')
    H.assert_mirrored(bufnr, 'typed')
    os.remove(path)
    vim.wait(1200)
    pcall(vim.cmd, 'checktime')
    H.eq('unsaved\n' .. H.numbered(3), H.lsp_text(bufnr), 'buffer kept its text')
    H.eq(0, #H.reconcile_ops(bufnr), 'nothing journaled')
    vim.cmd('bwipeout!')
  end },

  { 'burst-of-200-writes-never-empty', function()
    local path = root .. '/burst.txt'
    local bufnr = H.open(path, H.numbered(50))
    H.type_keys('ggOtyped<Esc>')
    H.assert_mirrored(bufnr, 'typed')
    local saw_empty = false
    vim.api.nvim_buf_attach(bufnr, false, {
      on_lines = function(_, buf)
        local count = vim.api.nvim_buf_line_count(buf)
        local first = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
        if count <= 2 and (first == '' or first == 'typed') then
          saw_empty = true
        end
      end,
    })
    for i = 1, 200 do
      H.write_file(path, '')
      H.write_file(path, H.numbered(50) .. 'write ' .. i .. '\n')
    end
    wait_text(bufnr, 'typed\n' .. H.numbered(50) .. 'write 200\n', 'the last write')
    H.check(not saw_empty, 'an empty intermediate state reached the buffer')
    vim.cmd('bwipeout!')
  end },
})
