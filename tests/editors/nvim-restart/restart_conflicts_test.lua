-- Open conflicts survive a crash of the sidecar (issue 31; lsp/reconcile/conflict_store.h): an
-- agent's own tool writes a file behind a buffer with unsaved typing, overlapping it — one
-- non-overlapping hunk is merged, the overlapping one is conflict c1; `kill -9` of the sidecar;
-- the plugin restarts it and the new sidecar lists c1 as before (same id, both sides), and
-- `hashline resolve c1 --take theirs` puts the disk's line into the buffer, keeping the typing.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local ws = H.work .. '/ws'
vim.notify = function() end

local function conflicts()
  local code, result, all = H.cli_json(ws, { 'conflicts' })
  H.eq(0, code, 'hashline conflicts: ' .. all)
  return result.conflicts or {}
end

H.drive(function()
  local hashline, bufnr, before
  H.test('an overlapping foreign write leaves conflict c1 open', function()
    vim.fn.mkdir(ws .. '/.git', 'p')
    hashline = H.setup({ restart = { backoff_ms = 50 } })
    bufnr = H.open(ws .. '/a.txt', H.numbered(20))
    vim.api.nvim_buf_set_lines(bufnr, 9, 10, false, { 'mine 10' })
    H.assert_mirrored(bufnr)
    local lines = H.numbered_lines(20)
    lines[10], lines[15] = 'theirs 10', 'theirs 15'
    H.write_file(ws .. '/a.txt.tmp', H.text_of(lines))
    os.rename(ws .. '/a.txt.tmp', ws .. '/a.txt')
    H.check(H.wait(15000, function() return H.line_of(bufnr, 'theirs 15') ~= nil end), 'the write was not merged')
    before = conflicts()
    H.eq(1, #before, 'open conflicts: ' .. vim.inspect(before))
    H.eq('mine 10\n', before[1].ours, 'ours')
    H.eq('theirs 10\n', before[1].theirs, 'theirs')
  end)
  H.test('kill -9: the new sidecar lists the same conflict, and taking theirs works', function()
    local old = hashline.client(bufnr)
    H.compat.uv.kill(hashline.status(bufnr).pid, 'sigkill')
    H.check(H.wait(20000, function()
      local client = hashline.client(bufnr)
      return client ~= nil and client.id ~= old.id and client.initialized
    end), 'not restarted')
    H.assert_mirrored(bufnr)
    local after = conflicts()
    H.eq(1, #after, 'conflicts after the restart: ' .. vim.inspect(after))
    H.eq({ before[1].id, before[1].ours, before[1].theirs, before[1].line },
      { after[1].id, after[1].ours, after[1].theirs, after[1].line }, 'the same conflict')
    local code, result, all = H.cli_json(ws, { 'resolve', after[1].id, '--take', 'theirs' })
    H.eq(0, code, 'resolve: ' .. all)
    H.eq('applied', result.status, 'resolve: ' .. all)
    H.check(H.line_of(bufnr, 'theirs 10') and not H.line_of(bufnr, 'mine 10'), 'the disk side is in the buffer')
    H.eq({}, conflicts(), 'no conflict left')
  end)
end)
