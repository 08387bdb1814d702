-- The neovim suite's harness (loaded with dofile by each t_*.lua): the helpers every Neovim suite
-- shares (common.lua), with this suite's own results for run.sh, "STATUS\tname\tdetail" lines in
-- which PENDING marks a check that waits for a server feature ("unknown command/method", or a
-- server without `hashline lsp`); the mirror checked at once, without waiting; the journal's
-- reconcile ops; a shell command in a directory; and the test list run, then quit.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/common.lua')

-- run.sh found that `hashline lsp` is not implemented yet (usage text, exit 2)
H.lsp_missing = os.getenv('HASHLINE_LSP_MISSING') == '1'

-- PASS, FAIL or PENDING (this suite's run.sh reads tab-separated lines).
function H.record(status, name, detail)
  H.write_result(status .. '\t' .. name .. '\t' .. H.one_line(detail))
end

local Pending = {}

-- Marks the running test as waiting for a server feature (counted as failed by run.sh).
function H.pending(why)
  error(setmetatable({ why = why }, Pending), 0)
end

-- Runs fn(); it passes unless it raises. H.check/H.eq raise with a message.
function H.test(name, fn)
  local ok, err = xpcall(fn, function(e)
    if getmetatable(e) == Pending then
      return e
    end
    -- the message and the test line that raised it, not the whole stack
    local where = H.test_line(debug.traceback('', 2))
    return tostring(e) .. (where and (' [' .. where .. ']') or '')
  end)
  if ok then
    H.record('PASS', name, '')
  elseif getmetatable(err) == Pending then
    H.record('PENDING', name, err.why)
  elseif H.lsp_missing then
    H.record('PENDING', name, 'server lacks `hashline lsp` (it prints usage); meanwhile: ' .. tostring(err))
  else
    H.record('FAIL', name, err)
  end
  return ok
end

-- Whether a JSON-RPC error means "the server does not have this (yet)".
function H.is_missing(err)
  if type(err) ~= 'table' then
    return false
  end
  local msg = tostring(err.message or ''):lower()
  return err.code == -32601 or msg:find('unknown command', 1, true) ~= nil
    or msg:find('not implemented', 1, true) ~= nil or msg:find('unsupported command', 1, true) ~= nil
end

-- result or (pending if the server lacks `what`) or failure.
function H.need(what, result, err)
  if result ~= nil then
    return result
  end
  if H.is_missing(err) then
    H.pending('server lacks ' .. what .. ': ' .. tostring(err.message))
  end
  error(what .. ' failed: ' .. vim.inspect(err), 2)
end

-- Asks the server for its mirror of `bufnr` and compares it with the buffer (text hash, version,
-- line count) at once: in this suite the mirror must already be the buffer.
function H.assert_mirrored(bufnr, what)
  local hashline = require('hashline')
  local snap = H.need('hashline/snapshot', hashline.snapshot(bufnr))
  local text = H.lsp_text(bufnr)
  H.eq(vim.fn.sha256(text), snap.sha256, (what or 'mirror') .. ' sha256 (buffer text ' .. vim.inspect(text) .. ')')
  H.eq(vim.lsp.util.buf_versions[bufnr], snap.version, (what or 'mirror') .. ' version')
  local _, breaks = text:gsub('\n', '')
  H.eq(breaks + 1, snap.lineCount, (what or 'mirror') .. ' lineCount')
  return snap
end

-- Runs a shell command in `dir`; fails the test unless it exits 0.
function H.sh(dir, command)
  local out = vim.fn.system({ 'sh', '-c', 'cd ' .. vim.fn.shellescape(dir) .. ' && ' .. command })
  H.eq(0, vim.v.shell_error, command .. ' (' .. out .. ')')
end

-- The journal's `reconcile` ops for `bufnr`'s file (hashline.log).
function H.reconcile_ops(bufnr)
  local log = H.need('hashline.log', require('hashline').log(bufnr))
  local ops = {}
  for _, op in ipairs(log.ops or {}) do
    if op.method == 'reconcile' then
      ops[#ops + 1] = op
    end
  end
  return ops
end

-- Waits up to 3 s for `want` reconcile ops of `bufnr`'s file (the journal is written once the
-- merge is confirmed); fails with the count seen, else returns them.
function H.wait_reconcile_ops(bufnr, want, what)
  local ops = {}
  H.wait(3000, function()
    ops = H.reconcile_ops(bufnr)
    return #ops == want
  end)
  if #ops ~= want then
    error(string.format('%s: want %d reconcile ops, got %d', what or 'journal', want, #ops), 2)
  end
  return ops
end

-- Runs the test list ({ {name, fn}, ... }), then quits. A crash of the file itself is recorded too.
function H.run(tests)
  local ok, err = pcall(function()
    for _, t in ipairs(tests) do
      H.test(t[1], t[2])
    end
  end)
  if not ok then
    H.record('FAIL', 'suite-crashed', err)
  end
  H.finish()
end

return H
