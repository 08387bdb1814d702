-- The Neovim picture of the review for the README (run by screenshot.sh in a real TUI under tmux,
-- not headless): app.py with unsaved typing, an agent (`claude`, the hashline CLI) replacing a
-- 4-line function body by 2 lines; the sign, the removed lines above the hunk as virtual lines.
-- Writes $WORK/ready (or $WORK/failed with the reason) when the screen shows it.
local work = assert(os.getenv('WORK'))
local bin = assert(os.getenv('HASHLINE_BIN'))
local ws = work .. '/ws'
local function done(name, text)
  local f = assert(io.open(work .. '/' .. name, 'w'))
  f:write(text or '')
  f:close()
end
local ok, err = pcall(function()
  vim.o.termguicolors = true
  vim.o.number = true
  vim.o.signcolumn = 'yes'
  vim.o.laststatus = 2
  vim.o.showmode = false
  local hashline = require('hashline')
  hashline.setup({ cmd = { bin, 'lsp' }, review_debounce = 50 })
  vim.cmd('cd ' .. ws)
  vim.cmd('edit app.py')
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.wait(10000, function()
    local client = hashline.client(bufnr)
    return client ~= nil and client.initialized and client.attached_buffers[bufnr]
  end, 50), 'not attached')
  -- The user's unsaved typing on line 1.
  vim.api.nvim_buf_set_lines(bufnr, 0, 1, false, { '# prices of the cart (unsaved note)' })
  local function cli(args, stdin)
    local code
    local cmd = { bin }
    vim.list_extend(cmd, args)
    local job = vim.fn.jobstart(cmd, { cwd = ws, on_exit = function(_, c) code = c end })
    if stdin then vim.fn.chansend(job, stdin) end
    vim.fn.chanclose(job, 'stdin')
    assert(vim.wait(30000, function() return code ~= nil end, 20), 'CLI did not exit')
    assert(code == 0, table.concat(args, ' ') .. ' exited ' .. tostring(code))
  end
  cli({ 'read', 'app.py', '--session', 'agent' })
  cli({ 'replace', 'app.py', '--session', 'agent', '--agent', 'claude', '--edits', '-' }, vim.fn.json_encode({ {
    old = '    total = 0\n    for item in items:\n        total += item.price * item.qty\n    return total\n',
    new = '    """Sum of price * qty over all items."""\n    return sum(i.price * i.qty for i in items)\n',
  } }))
  local review = require('hashline.review')
  assert(vim.wait(10000, function() return #review.removed_marks(bufnr) == 1 end, 50), 'no removed lines shown')
  vim.api.nvim_win_set_cursor(0, { 7, 4 })
  vim.cmd('redraw!')
  vim.defer_fn(function() done('ready') end, 300)
end)
if not ok then done('failed', tostring(err)) end
