-- Shared helpers of the nvim-edits suite (loaded with dofile by codex_test.lua and race_test.lua):
-- PASS / FAIL lines for run.sh, files and trees on disk, buffer text as Neovim holds and writes
-- it, the hashline CLI run as a job (so Neovim keeps serving the sidecar while it waits), and the
-- plugin's sidecar mirror compared with the buffer. Also loaded by tests/editors/agent-cli.
-- Works on every tested Neovim (0.7.2, 0.10, 0.12) through the plugin's version shims, H.compat.
local H = {}

H.compat = require('hashline.compat')

H.bin = assert(os.getenv('HASHLINE_BIN'), 'HASHLINE_BIN not set')
H.work = assert(os.getenv('WORK'), 'WORK not set')
H.root = assert(os.getenv('REPO_ROOT'), 'REPO_ROOT not set')
local results_path = assert(os.getenv('RESULTS'), 'RESULTS not set')

local function one_line(s)
  return (tostring(s or ''):gsub('[\r\n]+', ' | '))
end

function H.record(ok, name, detail)
  local f = assert(io.open(results_path, 'a'))
  f:write((ok and 'PASS ' or 'FAIL ') .. name .. ((detail and detail ~= '') and (': ' .. one_line(detail)) or '') .. '\n')
  f:close()
end

function H.note(text)
  local f = assert(io.open(results_path, 'a'))
  f:write('NOTE ' .. one_line(text) .. '\n')
  f:close()
end

-- Runs fn(); records PASS unless it raises. Returns ok.
function H.test(name, fn)
  local ok, err = xpcall(fn, function(e)
    local where = debug.traceback('', 2):match('\n%s*([^\n]*_test%.lua:%d+)')
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

function H.wait(ms, cond)
  return vim.wait(ms, cond, 5)
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

-- The line break Neovim joins this buffer's lines with.
function H.nl(bufnr)
  return ({ dos = '\r\n', mac = '\r', unix = '\n' })[vim.bo[bufnr].fileformat] or '\n'
end

-- The buffer's text as Neovim 0.7's LSP client sends it: lines joined, one break more if 'eol'.
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

-- Configures the plugin from this checkout (editors/nvim is on 'runtimepath').
function H.setup(extra)
  local cmd = { H.bin, 'lsp' }
  if os.getenv('SIDECAR_LOG') then -- SIDECAR_LOG=1: each sidecar logs at debug level into the work dir
    H.log_count = (H.log_count or 0) + 1
    vim.list_extend(cmd, { '--log-file', H.work .. '/sidecar-' .. H.log_count .. '.log', '--log-level', 'debug' })
  end
  local opts = vim.tbl_extend('force', { cmd = cmd, debounce = 0, timeout = 20000 }, extra or {})
  return require('hashline').setup(opts)
end

-- Opens `path` in a buffer and waits until the hashline client has sent its didOpen.
function H.open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local hashline = require('hashline')
  local attached = H.wait(20000, function()
    local client = hashline.client(bufnr)
    return client ~= nil and client.initialized and H.compat.attached(client, bufnr)
  end)
  H.check(attached, 'the hashline client never attached to ' .. path)
  return bufnr
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
