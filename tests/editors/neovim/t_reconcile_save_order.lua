-- The editor's own saves when the sidecar sees the write before the text written (docs/reconcile.md,
-- "Own saves"): Neovim's default didChange debounce (150 ms), a formatter that changes the buffer in
-- BufWritePre, and a slow BufWritePost (a linter) that holds back the didSave. The sidecar must take
-- every such write as the editor's own: nothing journaled, the buffer stays unmodified and equal to
-- the disk. The plugin announces each save (textDocument/willSave at BufWritePre) for that. A
-- foreign write after those saves is still merged.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

local root = H.work .. '/reconcile-save-order/proj'

-- Busy for `ms` without running the event loop, as a synchronous linter would.
local function busy(ms)
  local start = H.compat.uv.hrtime()
  while H.compat.uv.hrtime() - start < ms * 1e6 do
  end
end

H.run({
  { 'setup', function()
    vim.fn.mkdir(root, 'p')
    -- Defined before the client attaches, so it runs before the client's own BufWritePost (didSave).
    vim.api.nvim_create_autocmd('BufWritePost', {
      callback = function()
        busy(80)
      end,
    })
    H.setup({ reconcile = 'merge', debounce = 150 })
  end },

  { 'formatted-on-save-with-a-slow-linter-journals-nothing', function()
    local path = root .. '/formatted.txt'
    local bufnr = H.open(path, H.numbered(10))
    -- Defined after the plugin's BufWritePre, so the formatter's change is not sent before the write.
    vim.api.nvim_create_autocmd('BufWritePre', H.compat.with_buf({
      callback = function()
        local first = vim.api.nvim_buf_get_lines(bufnr, 0, 1, true)[1]
        vim.api.nvim_buf_set_lines(bufnr, 0, 1, true, { first:upper() })
      end,
    }, bufnr))
    local saves = tonumber(os.getenv('HASHLINE_RECONCILE_SAVES') or '20')
    for _ = 1, saves do
      H.type_keys('ggIx<Esc>')
      vim.cmd('silent write')
      vim.wait(30)
    end
    vim.wait(1500) -- longer than every settle and own-save wait
    H.eq(0, #H.reconcile_ops(bufnr), 'no reconcile op journaled for ' .. saves .. ' formatted saves')
    H.check(not vim.bo[bufnr].modified, 'saved')
    H.eq(H.read_file(path), H.lsp_text(bufnr), 'the buffer equals the disk')
    H.check(H.lsp_text(bufnr):find('^' .. string.rep('X', saves) .. 'LINE 1\n') ~= nil,
      'every save was formatted: ' .. vim.inspect(H.lsp_text(bufnr):sub(1, 40)))
    H.assert_mirrored(bufnr, 'after the saves')

    -- A foreign write afterwards is merged as usual.
    local theirs = H.read_file(path) .. 'appended by the agent\n'
    H.write_file(path .. '.agent-tmp', theirs)
    assert(os.rename(path .. '.agent-tmp', path))
    H.check(H.wait(10000, function()
      return H.lsp_text(bufnr) == theirs
    end), 'the foreign write was merged: ' .. vim.inspect(H.lsp_text(bufnr)))
    H.wait_reconcile_ops(bufnr, 1, 'one reconcile op, for the foreign write')
    vim.cmd('bwipeout!')
  end },
})
