-- The user commands :HashlineStatus, :HashlineLog, :HashlineUndo and :HashlineAttach (defined in
-- plugin/hashline.lua, loaded on first use). Each calls the sidecar through the Lua API and shows
-- the answer: short ones as messages, the journal in a scratch window; a command the server does
-- not have yet shows its error as one clean message. Main loop only.
local hashline = require('hashline')

local M = {}

local function notify(msg, level)
  vim.notify('hashline: ' .. msg, level or vim.log.levels.INFO)
end

local function describe_error(what, err)
  local code = err and err.code
  local msg = err and err.message or 'unknown error'
  if code == -32601 or (type(msg) == 'string' and msg:lower():find('unknown command', 1, true)) then
    return what .. ' is not supported by this hashline server (' .. msg .. ')'
  end
  return string.format('%s failed: %s (%s)', what, msg, tostring(code))
end

local function describe_refusal(what, result)
  local err = result.error or {}
  local text = string.format('%s refused: %s: %s', what, tostring(err.code), tostring(err.message))
  if err.hint and err.hint ~= '' then
    text = text .. ' — ' .. err.hint
  end
  return text
end

-- Text lines for a result: its `text` field when it has one, else the table pretty-printed.
local function result_lines(result)
  if type(result) == 'table' and type(result.text) == 'string' then
    return vim.split(result.text, '\n', { plain = true })
  end
  if type(result) == 'string' then
    return vim.split(result, '\n', { plain = true })
  end
  return vim.split(vim.inspect(result), '\n', { plain = true })
end

-- Shows `lines` in a scratch split named after `title` (reused by later calls).
local function show_scratch(title, lines)
  local name = 'hashline://' .. title
  local bufnr = vim.fn.bufnr('^' .. name .. '$')
  if bufnr == -1 then
    bufnr = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(bufnr, name)
    vim.bo[bufnr].bufhidden = 'hide'
    vim.bo[bufnr].filetype = 'hashline'
  end
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modifiable = false
  local win = vim.fn.bufwinid(bufnr)
  if win == -1 then
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, bufnr)
  else
    vim.api.nvim_set_current_win(win)
  end
  return bufnr
end

-- A few readable lines for a hashline.status result: the sidecar, then this buffer's document.
-- Unknown shapes fall back to the whole table.
local function status_lines(result, uri)
  if type(result) ~= 'table' or result.version == nil then
    return result_lines(result)
  end
  local lines = {
    string.format('hashline %s (pid %s, %s mode): %s, encoding %s, tier %s', tostring(result.version),
      tostring(result.pid), tostring(result.mode), tostring(result.status), tostring(result.encoding),
      tostring(result.tier)),
  }
  if type(result.workspaceRoots) == 'table' then
    table.insert(lines, 'roots: ' .. table.concat(result.workspaceRoots, ', '))
  end
  local socket = result.agentSocket or result.socket
  if type(socket) == 'string' then
    table.insert(lines, 'agent socket: ' .. socket)
  end
  local docs = type(result.documents) == 'table' and result.documents or {}
  for _, doc in ipairs(docs) do
    if doc.uri == uri then
      table.insert(lines, string.format('%s: version %s, %s lines, %s', vim.uri_to_fname(doc.uri),
        tostring(doc.version), tostring(doc.lineCount), doc.desynced and 'DESYNCED' or 'in sync'))
    end
  end
  table.insert(lines, #docs .. ' document(s) mirrored')
  return lines
end

function M.status()
  local result, err = hashline.status(0)
  if not result then
    return notify(describe_error('hashline.status', err), vim.log.levels.ERROR)
  end
  local lines = status_lines(result, vim.uri_from_bufnr(0))
  if #lines > 8 then
    show_scratch('status', lines)
  else
    notify(table.concat(lines, '\n'))
  end
  return result
end

function M.log(args)
  local opts = {}
  if args and args.args == 'all' then
    opts.all = true
  elseif args and args.args ~= '' then
    opts.limit = tonumber(args.args)
  end
  local result, err = hashline.log(0, opts)
  if not result then
    return notify(describe_error('hashline.log', err), vim.log.levels.ERROR)
  end
  show_scratch('log', result_lines(result))
  return result
end

function M.undo(args)
  local opts = {}
  if args and args.args ~= '' then
    opts.op = args.args
  end
  local result, err = hashline.undo(0, opts)
  if not result then
    return notify(describe_error('hashline.undo', err), vim.log.levels.ERROR)
  end
  if result.status == 'refused' then
    return notify(describe_refusal('undo', result), vim.log.levels.WARN)
  end
  local text = 'undone'
  if result.op then
    text = text .. ' op ' .. tostring(result.op)
  end
  if result.version then
    text = text .. ' (buffer version ' .. tostring(result.version) .. ')'
  end
  notify(text)
  return result
end

function M.attach()
  local client_id, reason = hashline.attach(0)
  if not client_id then
    return notify('not attached: ' .. tostring(reason), vim.log.levels.WARN)
  end
  notify('attached (client ' .. client_id .. ')')
  return client_id
end

return M
