-- The helpers every headless Neovim suite shares, loaded with dofile: by harness.lua here (the
-- neovim suite), by each nvim-*/ *_test.lua, by claude-ide and (through nvim-edits/harness.lua)
-- agent-cli. PASS / FAIL / NOTE lines in $RESULTS, which nvim_suite_run (nvim-env.sh) counts;
-- checks; waiting on the event loop, or inside H.drive yielding to Neovim's main loop; files and
-- trees on disk; buffer text as Neovim sends and writes it; the hashline CLI run as a job; the
-- plugin's client: setup, attach, the sidecar's mirror against the buffer, reset. Works on every
-- tested Neovim (0.7.2, 0.10, 0.12) through the plugin's version shims, H.compat.
-- Env: HASHLINE_BIN, WORK, RESULTS (set by nvim_suite_run); REPO_ROOT (default: found from here).
local H = {}

local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
H.root = os.getenv('REPO_ROOT') or vim.fn.fnamemodify(here, ':h:h:h')

-- Suites that run a plain LSP client have no plugin on 'runtimepath': load the shims by path.
local has_plugin, compat = pcall(require, 'hashline.compat')
H.compat = has_plugin and compat or dofile(H.root .. '/editors/nvim/lua/hashline/compat.lua')

H.bin = assert(os.getenv('HASHLINE_BIN'), 'HASHLINE_BIN not set')
H.work = assert(os.getenv('WORK'), 'WORK not set')
H.results_path = assert(os.getenv('RESULTS'), 'RESULTS not set')
vim.fn.mkdir(H.work, 'p')

-- Results ------------------------------------------------------------------------------------

function H.one_line(s)
  return (tostring(s or ''):gsub('[\r\n]+', ' | '))
end

-- Appends one line to $RESULTS (opened each time: a crash loses nothing written before it).
function H.write_result(line)
  local f = assert(io.open(H.results_path, 'a'))
  f:write(line .. '\n')
  f:close()
end

-- "PASS name" or "FAIL name: detail".
function H.record(ok, name, detail)
  local why = (detail ~= nil and detail ~= '') and (': ' .. H.one_line(detail)) or ''
  H.write_result((ok and 'PASS ' or 'FAIL ') .. name .. why)
end

-- "NOTE text": a figure or an observation, neither passed nor failed.
function H.note(text)
  H.write_result('NOTE ' .. H.one_line(text))
end

-- The test file's line an error came from (not this file's, nor Neovim's).
function H.test_line(traceback)
  return traceback:match('\n%s*([^\n]*_test%.lua:%d+)') or traceback:match('\n%s*([^\n]*/t_[%w_]+%.lua:%d+)')
end

-- Runs fn(); records PASS unless it raises (FAIL with the message and the test line). Returns ok.
function H.test(name, fn)
  local ok, err = xpcall(fn, function(e)
    local where = H.test_line(debug.traceback('', 2))
    return tostring(e) .. (where and (' [' .. where .. ']') or '')
  end)
  H.record(ok, name, not ok and err or nil)
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

function H.finish()
  vim.cmd('qa!')
end

-- Waiting ------------------------------------------------------------------------------------

local driver -- the coroutine H.drive runs the test in

local function resume()
  local ok, why = coroutine.resume(driver)
  if not ok then
    H.record(false, 'driver', why)
    H.finish()
  end
end

local function in_driver()
  return driver ~= nil and coroutine.running() == driver
end

-- Gives Neovim `ms` milliseconds: inside H.drive its main loop runs (typed keys, autocommands,
-- timers, LSP messages); elsewhere vim.wait runs the event loop.
function H.sleep(ms)
  if in_driver() then
    vim.defer_fn(resume, ms)
    coroutine.yield()
  else
    vim.wait(ms)
  end
end

-- Until cond() holds, at most `ms`; returns whether it held.
function H.wait(ms, cond)
  if not in_driver() then
    return vim.wait(ms, cond, 5)
  end
  local deadline = H.compat.uv.hrtime() + ms * 1e6
  while not cond() do
    if H.compat.uv.hrtime() > deadline then
      return false
    end
    H.sleep(20)
  end
  return true
end

-- Runs main() in a coroutine that yields to Neovim's main loop in every H.sleep / H.wait (so in
-- H.cli too): keys typed with nvim_input are then handled as the user's are, and CursorMoved /
-- ModeChanged fire, which vim.wait does not do. A crash is recorded as "FAIL driver"; then quits.
function H.drive(main)
  driver = coroutine.create(function()
    local ok, why = pcall(main)
    if not ok then
      H.record(false, 'driver', why)
    end
    H.finish()
  end)
  resume()
end

-- Files --------------------------------------------------------------------------------------

-- The file's bytes, nil when it cannot be read.
function H.read_file(path)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

-- Writes the bytes (creating the parent directories).
function H.write_file(path, text)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
end

-- Every regular file under `dir`: relative path -> bytes ({} when `dir` does not exist).
function H.tree(dir)
  local out = {}
  local function walk(sub)
    local handle = H.compat.uv.fs_scandir(sub == '' and dir or (dir .. '/' .. sub))
    if not handle then
      return
    end
    while true do
      local name, kind = H.compat.uv.fs_scandir_next(handle)
      if not name then
        break
      end
      local rel = sub == '' and name or (sub .. '/' .. name)
      if kind == 'directory' then
        walk(rel)
      else
        out[rel] = H.read_file(dir .. '/' .. rel)
      end
    end
  end
  walk('')
  return out
end

function H.write_tree(dir, files)
  vim.fn.mkdir(dir, 'p')
  for rel, text in pairs(files) do
    H.write_file(dir .. '/' .. rel, text)
  end
end

-- { 'line 1', ..., 'line COUNT' } (another prefix than "line " if given).
function H.numbered_lines(count, prefix)
  local lines = {}
  for i = 1, count do
    lines[i] = (prefix or 'line ') .. i
  end
  return lines
end

-- The same lines as text, each ended by "\n".
function H.numbered(count, prefix)
  return table.concat(H.numbered_lines(count, prefix), '\n') .. '\n'
end

-- Lines as a file holds them: each ended by "\n".
function H.text_of(lines)
  return table.concat(lines, '\n') .. '\n'
end

-- Buffers ------------------------------------------------------------------------------------

-- The line break Neovim joins this buffer's lines with.
function H.nl(bufnr)
  return ({ dos = '\r\n', mac = '\r', unix = '\n' })[vim.bo[bufnr].fileformat] or '\n'
end

-- The buffer's text as Neovim's LSP client sends it: lines joined, one break more if 'eol'.
function H.lsp_text(bufnr)
  local nl = H.nl(bufnr)
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), nl)
  if vim.bo[bufnr].eol then
    text = text .. nl
  end
  return text
end

-- The bytes `:write` would put on disk: as lsp_text, but 'fixeol' also ends the last line.
function H.written_text(bufnr)
  local nl = H.nl(bufnr)
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), nl)
  local bo = vim.bo[bufnr]
  if bo.eol or (bo.fixeol and not bo.binary) then
    text = text .. nl
  end
  return text
end

function H.lines(bufnr)
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, true)
end

-- The 1-based number of the buffer's first line equal to `text`, or nil.
function H.line_of(bufnr, text)
  for i, line in ipairs(H.lines(bufnr)) do
    if line == text then
      return i
    end
  end
end

-- Types keys and runs them at once, as typeahead (mode 'xt').
function H.type_keys(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'xt', false)
end

-- The hashline CLI ---------------------------------------------------------------------------

-- Runs the hashline CLI as a job in `cwd` and waits for it without blocking the event loop (the
-- sidecar calls back into this Neovim with workspace/applyEdit while the CLI waits).
-- Returns exit code, stdout, stderr.
function H.cli(cwd, args, stdin)
  local out, err, code = {}, {}, nil
  local cmd = { H.bin }
  vim.list_extend(cmd, args)
  local job = vim.fn.jobstart(cmd, {
    cwd = cwd,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data) out = data end,
    on_stderr = function(_, data) err = data end,
    on_exit = function(_, c) code = c end,
  })
  H.check(job > 0, 'could not start ' .. H.bin)
  if stdin then
    vim.fn.chansend(job, stdin)
  end
  vim.fn.chanclose(job, 'stdin')
  H.check(H.wait(60000, function() return code ~= nil end), 'CLI did not exit: ' .. table.concat(cmd, ' '))
  return code, table.concat(out, '\n'), table.concat(err, '\n')
end

-- H.cli with --json added; fails unless stdout is a JSON object. Returns exit code, the decoded
-- result, stdout .. stderr.
function H.cli_json(cwd, args, stdin)
  local full = vim.list_extend({}, args)
  table.insert(full, '--json')
  local code, out, err = H.cli(cwd, full, stdin)
  local ok, decoded = pcall(vim.fn.json_decode, out)
  H.check(ok and type(decoded) == 'table', 'not JSON (exit ' .. tostring(code) .. '): ' .. out .. err)
  return code, decoded, out .. err
end

-- The plugin (editors/nvim on 'runtimepath') -------------------------------------------------

-- Configures the plugin from this checkout.
function H.setup(extra)
  local cmd = { H.bin, 'lsp' }
  if os.getenv('SIDECAR_LOG') then -- SIDECAR_LOG=1: each sidecar logs at debug level into the work dir
    H.log_count = (H.log_count or 0) + 1
    vim.list_extend(cmd, { '--log-file', H.work .. '/sidecar-' .. H.log_count .. '.log', '--log-level', 'debug' })
  end
  local opts = vim.tbl_extend('force', { cmd = cmd, debounce = 0, timeout = 20000 }, extra or {})
  return require('hashline').setup(opts)
end

-- Waits until the plugin's hashline client is initialized and attached to `bufnr`; returns it.
function H.wait_attached(bufnr, what)
  local hashline = require('hashline')
  local attached = H.wait(20000, function()
    local client = hashline.client(bufnr)
    return client ~= nil and client.initialized and H.compat.attached(client, bufnr)
  end)
  if not attached then
    error('the hashline client never attached to ' .. (what or vim.api.nvim_buf_get_name(bufnr))
      .. ' (server did not start or initialize?)', 2)
  end
  return hashline.client(bufnr)
end

-- Opens `path` (writing `text` to it first when given) and waits until the hashline client
-- mirrors it. Returns bufnr, client.
function H.open(path, text)
  if text then
    H.write_file(path, text)
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  return bufnr, H.wait_attached(bufnr, path)
end

-- Waits until the sidecar's mirror of `bufnr` is the buffer's LSP text at the buffer's version.
function H.assert_mirrored(bufnr, what)
  local hashline = require('hashline')
  local snap, err
  local want
  local same = H.wait(10000, function()
    want = vim.fn.sha256(H.lsp_text(bufnr))
    snap, err = hashline.snapshot(bufnr)
    return snap ~= nil and snap.sha256 == want and snap.version == vim.lsp.util.buf_versions[bufnr]
  end)
  H.check(same, (what or 'mirror') .. ': the sidecar mirror is not the buffer: ' .. vim.inspect(snap or err)
    .. ' buffer version ' .. tostring(vim.lsp.util.buf_versions[bufnr]) .. ' text '
    .. vim.inspect(H.lsp_text(bufnr)))
end

-- Checks that the sidecar refuses `rel` (open in `bufnr`) as DESYNCED because of a lone CR:
-- Neovim keeps a lone CR inside a line while LSP positions break the line there (neovim#15532),
-- so the sidecar must refuse the buffer rather than mirror it wrong.
function H.assert_refused_lone_cr(cwd, rel, bufnr, what)
  local code, _, err = H.cli(cwd, { 'read', rel, '--json' })
  H.eq(1, code, (what or rel) .. ': read of a buffer with a lone CR (stderr ' .. err .. ')')
  H.check(vim.startswith(err, 'DESYNCED') and err:find('lone CR', 1, true) ~= nil,
    (what or rel) .. ': DESYNCED naming the lone CR first on stderr: ' .. err)
  local snap = require('hashline').snapshot(bufnr)
  H.check(snap == nil, (what or rel) .. ': no snapshot of a refused buffer: ' .. vim.inspect(snap))
end

-- Stops every hashline client and wipes every buffer (between scenarios).
function H.reset()
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(bufnr) and vim.api.nvim_buf_get_name(bufnr) ~= '' then
      pcall(vim.api.nvim_buf_delete, bufnr, { force = true })
    end
  end
  for _, client in ipairs(H.compat.get_clients()) do
    H.compat.stop(client)
  end
  H.wait(10000, function() return #H.compat.get_clients() == 0 end)
end

return H
