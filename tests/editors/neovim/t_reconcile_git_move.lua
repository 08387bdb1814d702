-- Foreign disk writes, the cases t_reconcile.lua leaves out (issue 13, docs/reconcile.md):
-- `git stash` puts HEAD's text back behind a buffer with unsaved typing (merged as one `reconcile`
-- op by `disk`, the typing kept, no W12 in :messages), and a file moved away with `mv` leaves the
-- buffer's text alone, journals nothing and tells the user once.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

local root = H.work .. '/reconcile-git-move/proj'

-- Every vim.notify of the plugin, to check what the user was told.
local told = {}
local notify = vim.notify
vim.notify = function(msg, level, opts)
  told[#told + 1] = msg
  return notify(msg, level, opts)
end

H.run({
  { 'setup', function()
    vim.fn.mkdir(root, 'p')
    H.setup({ reconcile = 'merge' })
  end },

  { 'git-stash', function()
    local theirs = H.numbered(30):gsub('line 29\n', 'line 29 as committed\n')
    H.write_file(root .. '/stash.txt', theirs)
    H.sh(root, 'git init -q . && git add stash.txt && git -c user.name=t -c user.email=t@t commit -qm base')
    -- The working tree differs from HEAD when the editor opens it; `git stash` restores HEAD.
    local original = H.numbered(30)
    local bufnr = H.open(root .. '/stash.txt', original)
    H.type_keys('ggOtyped by the user<Esc>')
    H.assert_mirrored(bufnr, 'after typing')
    H.sh(root, 'git -c user.name=t -c user.email=t@t stash -q')
    H.eq(theirs, H.read_file(root .. '/stash.txt'), 'git stash put HEAD back on disk')
    H.check(H.wait(10000, function()
      return H.lsp_text(bufnr) == 'typed by the user\n' .. theirs
    end), 'buffer has the typing and the stash: ' .. vim.inspect(H.lsp_text(bufnr)))
    H.check(vim.bo[bufnr].modified, 'still modified: the typing is not saved')
    local ops = H.wait_reconcile_ops(bufnr, 1, 'one reconcile op')
    H.eq('disk', ops[1].agent, 'journaled agent')
    local messages = vim.api.nvim_exec('messages', true)
    H.check(not messages:find('W12') and not messages:find('W11'), 'no W11/W12 warning: ' .. messages)
    vim.cmd('bwipeout!')
  end },

  { 'moved-away-leaves-the-buffer', function()
    local path = root .. '/moved.txt'
    local bufnr = H.open(path, H.numbered(4))
    H.type_keys('ggOunsaved<Esc>')
    H.assert_mirrored(bufnr, 'typed')
    told = {}
    assert(os.rename(path, root .. '/elsewhere.txt'))
    local ok = H.wait(10000, function()
      -- The plugin's vim.notify, or the server's window/showMessage (:messages on 0.7.2).
      local seen = vim.list_extend({ vim.api.nvim_exec('messages', true) }, told)
      for _, m in ipairs(seen) do
        if m:find('moved.txt', 1, true) and m:find('keeps its text', 1, true) then
          return true
        end
      end
      return false
    end)
    H.check(ok, 'the user is told the buffer keeps its text: ' .. vim.inspect(told) .. ' ' .. vim.api.nvim_exec('messages', true))
    H.eq('unsaved\n' .. H.numbered(4), H.lsp_text(bufnr), 'buffer kept its text')
    H.eq(0, #H.reconcile_ops(bufnr), 'nothing journaled')
    vim.cmd('bwipeout!')
  end },
})
