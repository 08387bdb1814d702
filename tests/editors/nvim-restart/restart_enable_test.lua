-- Neovim 0.11+'s vim.lsp.enable('hashline') (lsp/hashline.lua, without setup{}): a `kill -9` of the
-- sidecar is restarted the same way (hashline.supervisor), typing before, during and after it is
-- mirrored by the new sidecar. Older Neovim has no vim.lsp.enable: a NOTE says so.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local ws = H.work .. '/ws'
if not (vim.lsp.config and vim.lsp.enable) then
  local v = vim.version()
  H.note(string.format('vim.lsp.enable needs Neovim 0.11+: not applicable on %d.%d.%d', v.major, v.minor, v.patch))
  H.finish()
  return
end
vim.notify = function() end
H.drive(function()
  H.test('vim.lsp.enable: kill -9 restarted, typing during the restart mirrored', function()
    vim.fn.mkdir(ws .. '/.git', 'p')
    vim.lsp.config('hashline', { cmd = { H.bin, 'lsp' } })
    vim.lsp.enable('hashline')
    H.write_file(ws .. '/a.txt', H.numbered(5))
    vim.cmd('edit ' .. ws .. '/a.txt')
    local bufnr = vim.api.nvim_get_current_buf()
    local hashline = require('hashline')
    local first = H.wait_attached(bufnr)
    vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { 'typed before' })
    H.assert_mirrored(bufnr, 'before the kill')
    H.compat.uv.kill(hashline.status(bufnr).pid, 'sigkill')
    H.sleep(30)
    vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { 'typed while it restarts' })
    H.check(H.wait(20000, function()
      local client = hashline.client(bufnr)
      return client ~= nil and client.id ~= first.id and client.initialized
    end), 'not restarted')
    vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { 'typed after' })
    H.assert_mirrored(bufnr, 'after the restart')
  end)
end)
