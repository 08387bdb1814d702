-- The editor side of the end-to-end latency bench (e2e_latency.mjs): headless Neovim 0.7.2 with
-- the hashline plugin (editors/nvim) set up as a user would, holding the bench file in a buffer.
-- The plugin starts `hashline lsp` with its agent socket; the bench talks to that socket. This
-- script only answers the bench's file requests, polled on a timer so Neovim's loop stays free:
--   $E2E_WORK/dump  -> writes the buffer's text to $E2E_WORK/buffer.txt, then $E2E_WORK/dumped
--   $E2E_WORK/quit  -> stops the client and quits
-- Writes $E2E_WORK/ready once the client is attached and initialized.
local bin = assert(os.getenv('HASHLINE_BIN'))
local work = assert(os.getenv('E2E_WORK'))
local file = assert(os.getenv('E2E_FILE'))
local plugin = assert(os.getenv('E2E_PLUGIN'))

vim.opt.runtimepath:append(plugin)
vim.o.swapfile = false
vim.o.undolevels = 1000
local hashline = require('hashline')
-- $E2E_SIDECAR_LOG: a debug log of the sidecar (timestamps per message), for looking into latency.
local log = os.getenv('E2E_SIDECAR_LOG')
local cmd = log and { bin, 'lsp', '--log-file', log, '--log-level', 'debug' } or { bin, 'lsp', '--log-level', 'warn' }
-- E2E_REVIEW_SIGNS=0: without the review signs, whose refresh after every agent edit asks the
-- sidecar for the journal (to see what that costs the edit loop).
hashline.setup({ cmd = cmd, review_signs = os.getenv('E2E_REVIEW_SIGNS') ~= '0' })

local function exists(path)
  return vim.loop.fs_stat(path) ~= nil
end

local function write_file(path, text)
  local handle = assert(io.open(path, 'wb'))
  handle:write(text)
  handle:close()
end

-- Time spent in the plugin's workspace/applyEdit handler (apply + undo breaks), per edit: the
-- Neovim side of an edit's latency. Written as $E2E_WORK/handler_ms.txt with the dump.
local handler_ms = {}
local attach = require('hashline.attach')
local apply_edit_handler = attach.apply_edit_handler
attach.apply_edit_handler = function(...)
  local start = vim.loop.hrtime()
  local reply = apply_edit_handler(...)
  table.insert(handler_ms, string.format('%.3f', (vim.loop.hrtime() - start) / 1e6))
  return reply
end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()

local ready = false
local timer = vim.loop.new_timer()
timer:start(20, 20, vim.schedule_wrap(function()
  if not ready then
    local client = hashline.client(bufnr)
    if client and client.initialized then
      ready = true
      write_file(work .. '/ready', tostring(client.id))
    end
    return
  end
  if exists(work .. '/dump') then
    os.remove(work .. '/dump')
    local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    local text = table.concat(lines, '\n')
    if vim.bo[bufnr].eol then
      text = text .. '\n'
    end
    write_file(work .. '/buffer.txt', text)
    write_file(work .. '/handler_ms.txt', table.concat(handler_ms, '\n'))
    write_file(work .. '/dumped', 'ok')
  end
  if exists(work .. '/quit') then
    timer:stop()
    for _, client in pairs(vim.lsp.get_active_clients()) do
      client.stop()
    end
    vim.wait(3000, function()
      return #vim.lsp.get_active_clients() == 0
    end, 20)
    vim.cmd('qall!')
  end
end))
