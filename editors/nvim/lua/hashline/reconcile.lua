-- Disk writes merged by the sidecar (docs/reconcile.md): agents that write files behind open
-- buffers get their change merged into the buffer by `hashline lsp`, so Neovim must neither prompt
-- (W12 "file changed since editing started") nor reload the file over the user's unsaved typing.
--   * FileChangedShell: for buffers this plugin attached, with reconcile ~= 'off', answers '' (do
--     nothing; the sidecar merges), and tells the user once when the file was deleted. Other
--     buffers keep Neovim's usual behaviour (reload when unmodified and 'autoread', else ask).
--   * BufWritePre: announces the save (textDocument/willSave), so a write whose text the sidecar
--     has not seen yet (a formatter on save) is never taken for a foreign one.
--   * hashline/reconciled (server notification): sets 'nomodified' when the buffer now equals the
--     disk at the version the sidecar reached; shows conflicts (disk hunks kept out because they
--     overlap unsaved typing) and keeps them for :HashlineConflicts / :HashlineResolve.
--   * Neovim remembers the file's timestamp from when it read or wrote it, and :w asks "The file
--     has been changed since reading it!!! Do you really want to write to it?" when it moved.
--     Neovim stores a new timestamp silently only when :checktime finds the buffer unmodified
--     and equal to the file (FileChangedShell reason 'time', answered 'ask'). So: a clean merged
--     buffer gets :checktime at once; a merged buffer with unsaved typing has its next :w done
--     by this plugin (BufWriteCmd: BufWritePre, the bytes as Neovim would write them, then
--     BufWritePost, so didSave and formatters run as usual), then :checktime — but only while
--     the file is still exactly as the sidecar merged it (same size, mtime, inode) and the whole
--     buffer goes to its own file; otherwise Neovim writes (and asks) as usual.
-- Main loop only.
local config = require('hashline.config')
local attach = require('hashline.attach')
local compat = require('hashline.compat')

local M = {}

-- bufnr -> list of conflicts from the last reconciled notifications (server's objects)
M.conflicts_by_buf = {}

local function notify(msg, level)
  vim.notify('hashline: ' .. msg, level or vim.log.levels.INFO)
end

local function enabled()
  return config.get().reconcile ~= 'off'
end

local function buffer_for_uri(uri)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.uri_from_bufnr(bufnr) == uri then
      return bufnr
    end
  end
  return nil
end

local function file_state(path)
  local stat = compat.uv.fs_stat(path)
  if not stat then
    return nil
  end
  return { stat.size, stat.mtime.sec, stat.mtime.nsec, stat.ino }
end

-- :checktime of one buffer, from the main loop (Neovim defers it inside autocommands).
local function take_timestamp(bufnr)
  vim.schedule(function()
    if vim.api.nvim_buf_is_valid(bufnr) then
      pcall(vim.cmd, 'checktime ' .. bufnr)
    end
  end)
end

-- The buffer's bytes as :w would write them ('fileformat', 'eol'/'fixeol', 'bomb',
-- 'fileencoding').
local function file_bytes(bufnr)
  local bo = vim.bo[bufnr]
  local nl = ({ dos = '\r\n', mac = '\r' })[bo.fileformat] or '\n'
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), nl)
  if bo.eol or (bo.fixeol and not bo.binary) then
    text = text .. nl
  end
  local encoding = bo.fileencoding
  if encoding ~= '' and encoding ~= 'utf-8' then
    text = vim.fn.iconv(text, 'utf-8', encoding)
  end
  if bo.bomb and (encoding == '' or encoding == 'utf-8') then
    text = '\239\187\191' .. text
  end
  return text
end

-- Arms the buffer's next write after a merge that left unsaved typing (see the file comment).
local function arm_write(bufnr, path)
  local merged_state = file_state(path)
  if not merged_state then
    return
  end
  local group = vim.api.nvim_create_augroup('hashline_reconciled_write_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd('BufWriteCmd', compat.with_buf({
    group = group,
    nested = true,
    callback = function(args)
      pcall(vim.api.nvim_del_augroup_by_id, group)
      local own_file = vim.fn.fnamemodify(args.file, ':p') == vim.fn.fnamemodify(path, ':p')
      local whole = vim.fn.line("'[") == 1 and vim.fn.line("']") == vim.api.nvim_buf_line_count(bufnr)
      if not (own_file and whole and vim.deep_equal(file_state(path), merged_state)) then
        return vim.cmd("'[,']write " .. vim.fn.fnameescape(args.file)) -- Neovim's own write
      end
      vim.api.nvim_exec_autocmds('BufWritePre', compat.with_buf({ modeline = false }, bufnr))
      local file, err = io.open(path, 'wb')
      if not file then
        return notify('cannot write ' .. path .. ': ' .. tostring(err), vim.log.levels.ERROR)
      end
      file:write(file_bytes(bufnr))
      file:close()
      vim.bo[bufnr].modified = false
      vim.api.nvim_exec_autocmds('BufWritePost', compat.with_buf({ modeline = false }, bufnr))
      take_timestamp(bufnr) -- the buffer equals the file now: Neovim stores its timestamp
    end,
  }, bufnr))
end

-- FileChangedShell for every buffer (an autocommand for it replaces Neovim's own prompt, so the
-- buffers we do not manage get that behaviour back explicitly).
function M.on_file_changed_shell(args)
  local bufnr = args.buf
  local reason = vim.v.fcs_reason
  if reason == 'time' then
    vim.v.fcs_choice = 'ask' -- only the timestamp moved: Neovim stores it, without a word
    return
  end
  if enabled() and attach.client_of(bufnr) then
    vim.v.fcs_choice = ''
    if reason == 'deleted' and not vim.b[bufnr].hashline_told_deleted then
      vim.b[bufnr].hashline_told_deleted = true
      notify(vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.') ..
        ' was deleted on disk; the buffer keeps its text (:w writes it again)', vim.log.levels.WARN)
    end
    return
  end
  if reason == 'deleted' or reason == 'conflict' or vim.bo[bufnr].modified or not vim.o.autoread then
    vim.v.fcs_choice = 'ask'
  else
    vim.v.fcs_choice = 'reload'
  end
end

-- The server's `hashline/reconciled` notification.
function M.on_reconciled(_, params)
  if type(params) ~= 'table' then
    return
  end
  vim.schedule(function()
    local bufnr = buffer_for_uri(params.uri)
    if not bufnr then
      return
    end
    if params.kind ~= 'deleted' then
      vim.b[bufnr].hashline_told_deleted = nil
    end
    if params.kind ~= 'deleted' then
      if params.bufferMatchesDisk == true and compat.buf_version(bufnr) == params.version then
        vim.bo[bufnr].modified = false
        take_timestamp(bufnr)
      elseif vim.bo[bufnr].modified then
        arm_write(bufnr, vim.api.nvim_buf_get_name(bufnr))
      end
    end
    local conflicts = type(params.conflicts) == 'table' and params.conflicts or {}
    if #conflicts > 0 then
      local list = M.conflicts_by_buf[bufnr] or {}
      for _, conflict in ipairs(conflicts) do
        table.insert(list, conflict)
      end
      M.conflicts_by_buf[bufnr] = list
      local where = {}
      for _, conflict in ipairs(conflicts) do
        table.insert(where, string.format('%s at line %d', conflict.id, conflict.line))
      end
      notify(string.format('%s changed on disk where you have unsaved changes (%s); kept yours. ' ..
        ':HashlineConflicts shows both sides, :HashlineResolve %s theirs takes the disk\'s',
        vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.'), table.concat(where, ', '),
        conflicts[1].id), vim.log.levels.WARN)
    end
    require('hashline.review').schedule_refresh(bufnr, 20) -- the merge's hunks are pending
  end)
end

-- BufWritePre: tells the buffer's sidecar that Neovim is about to write it (textDocument/willSave,
-- which Neovim 0.7 does not send). The sidecar then takes the write as the editor's own even when
-- the didChange of the text written comes after it (a formatter run on save, debounced changes).
-- The client's notify also sends the pending didChange first. `:w other-file` is no save of the buffer.
function M.announce_save(args)
  local client = attach.client_of(args.buf)
  if not client or not enabled() then
    return
  end
  local name = vim.api.nvim_buf_get_name(args.buf)
  if name == '' or vim.fn.fnamemodify(args.file, ':p') ~= vim.fn.fnamemodify(name, ':p') then
    return
  end
  compat.notify(client, 'textDocument/willSave', { textDocument = { uri = vim.uri_from_bufnr(args.buf) }, reason = 1 })
end

-- Installs the FileChangedShell and BufWritePre autocommands (setup()).
function M.enable()
  local group = vim.api.nvim_create_augroup('hashline_reconcile', { clear = true })
  vim.api.nvim_create_autocmd('FileChangedShell', {
    group = group,
    callback = M.on_file_changed_shell,
  })
  vim.api.nvim_create_autocmd('BufWritePre', {
    group = group,
    callback = M.announce_save,
  })
end

-- The open conflicts of the buffer's sidecar, as the server lists them (synchronous).
function M.list(bufnr)
  return require('hashline.request').command(bufnr or 0, 'hashline.conflicts', vim.empty_dict())
end

-- :HashlineConflicts — the open conflicts in the quickfix list, both sides in the text.
function M.conflicts_command()
  local result, err = M.list(0)
  if not result then
    return notify('conflicts: ' .. tostring(err and err.message), vim.log.levels.ERROR)
  end
  local items = {}
  for _, conflict in ipairs(result.conflicts or {}) do
    local ours = (conflict.ours or ''):gsub('\n$', ''):gsub('\n', ' ⏎ ')
    local theirs = (conflict.theirs or ''):gsub('\n$', ''):gsub('\n', ' ⏎ ')
    table.insert(items, {
      filename = conflict.path,
      lnum = conflict.line,
      text = string.format('%s yours: %s | disk: %s', conflict.id, ours, theirs),
    })
  end
  vim.fn.setqflist({}, ' ', { title = 'hashline conflicts', items = items })
  if #items == 0 then
    notify('no open conflicts')
  else
    vim.cmd('copen')
  end
  return result
end

-- :HashlineResolve {id} theirs|ours
function M.resolve_command(args)
  local id, take = (args.args or ''):match('^(%S+)%s+(%S+)$')
  if not id or (take ~= 'theirs' and take ~= 'ours') then
    return notify('usage: :HashlineResolve {conflict id} theirs|ours', vim.log.levels.ERROR)
  end
  local result, err = require('hashline.request').command(0, 'hashline.resolve', { conflict = id, take = take })
  if not result then
    return notify('resolve: ' .. tostring(err and err.message), vim.log.levels.ERROR)
  end
  if result.status == 'refused' then
    return notify('resolve ' .. id .. ': ' .. tostring(result.error and result.error.message) .. ' — ' ..
      tostring(result.error and result.error.hint), vim.log.levels.WARN)
  end
  for bufnr, list in pairs(M.conflicts_by_buf) do
    for index = #list, 1, -1 do
      if list[index].id == id then
        table.remove(list, index)
      end
    end
    if #list == 0 then
      M.conflicts_by_buf[bufnr] = nil
    end
  end
  notify('took ' .. take .. ' for ' .. id)
  return result
end

return M
