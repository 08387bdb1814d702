-- Shared helpers of the headless Neovim suite (loaded with dofile by each t_*.lua): recording
-- PASS / FAIL / PENDING lines into $RESULTS for run.sh, waiting on the event loop, buffer and file
-- text, and telling "the server lacks this feature" (pending) from a real failure.
local H = {}

-- The plugin's version shims (loads no other plugin module), for the tests' own LSP calls.
H.compat = require('hashline.compat')

H.work = assert(os.getenv('WORK'), 'WORK not set')
H.bin = assert(os.getenv('HASHLINE_BIN'), 'HASHLINE_BIN not set')
H.results_path = assert(os.getenv('RESULTS'), 'RESULTS not set')
-- run.sh found that `hashline lsp` is not implemented yet (usage text, exit 2)
H.lsp_missing = os.getenv('HASHLINE_LSP_MISSING') == '1'

local function one_line(s)
  return (tostring(s or ''):gsub('[\r\n]+', ' | '))
end

function H.record(status, name, detail)
  local f = assert(io.open(H.results_path, 'a'))
  f:write(status .. '\t' .. name .. '\t' .. one_line(detail) .. '\n')
  f:close()
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
    local where = debug.traceback('', 2):match('\n%s*([^\n]*t_[%w_]+%.lua:%d+)')
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

function H.check(cond, msg)
  if not cond then
    error(msg or 'check failed', 2)
  end
  return cond
end

function H.eq(want, got, what)
  if not vim.deep_equal(want, got) then
    error(string.format('%s: want %s, got %s', what or 'value', vim.inspect(want), vim.inspect(got)), 2)
  end
end

function H.wait(ms, cond)
  return vim.wait(ms, cond, 10)
end

function H.read_file(path)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

function H.write_file(path, text)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
end

-- The buffer's text as the LSP client sends it (lines joined by the buffer's line ending,
-- plus one if 'eol').
function H.buf_text(bufnr)
  local nl = ({ dos = '\r\n', mac = '\r', unix = '\n' })[vim.bo[bufnr].fileformat] or '\n'
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), nl)
  if vim.bo[bufnr].eol then
    text = text .. nl
  end
  return text
end

function H.lines(bufnr)
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, true)
end

function H.type_keys(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'xt', false)
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

-- Opens `path` (creating it with `text` first when given) and waits until the hashline client
-- mirrors it. Returns bufnr, client.
function H.open(path, text)
  if text then
    H.write_file(path, text)
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local hashline = require('hashline')
  local attached = H.wait(15000, function()
    local client = hashline.client(bufnr)
    return client ~= nil and client.initialized and H.compat.attached(client, bufnr)
  end)
  if not attached then
    error('the hashline client never attached to ' .. path .. ' (server did not start or initialize?)', 2)
  end
  return bufnr, hashline.client(bufnr)
end

-- Asks the server for its mirror of `bufnr` and compares it with the buffer (text hash, version).
function H.assert_mirrored(bufnr, what)
  local hashline = require('hashline')
  local snap = H.need('hashline/snapshot', hashline.snapshot(bufnr))
  local text = H.buf_text(bufnr)
  H.eq(vim.fn.sha256(text), snap.sha256, (what or 'mirror') .. ' sha256 (buffer text ' .. vim.inspect(text) .. ')')
  H.eq(vim.lsp.util.buf_versions[bufnr], snap.version, (what or 'mirror') .. ' version')
  local _, breaks = text:gsub('\n', '')
  H.eq(breaks + 1, snap.lineCount, (what or 'mirror') .. ' lineCount')
  return snap
end

-- "line 1\n" .. "line COUNT\n" (another prefix than "line " if given).
function H.numbered(count, prefix)
  local lines = {}
  for i = 1, count do
    lines[#lines + 1] = (prefix or 'line ') .. i
  end
  return table.concat(lines, '\n') .. '\n'
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

function H.setup(extra)
  local opts = vim.tbl_extend('force', { cmd = { H.bin, 'lsp' }, debounce = 0, timeout = 15000 }, extra or {})
  return require('hashline').setup(opts)
end

function H.finish()
  vim.cmd('qa!')
end

-- Runs the test list, then quits. A crash of the file itself is recorded too.
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
