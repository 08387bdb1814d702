-- The user commands :HashlineStatus, :HashlineLog, :HashlineUndo, :HashlineAttach, :HashlineRestart, and the review's
-- :HashlineReview, :HashlineAccept, :HashlineReject, and :HashlineSendToClaude (defined in
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

-- One line per journal op (oldest first): id, time, form, file, versions, caller, hunks, state.
local function log_lines(result)
  if type(result) ~= 'table' or type(result.ops) ~= 'table' then
    return result_lines(result)
  end
  local lines = {}
  for _, op in ipairs(result.ops) do
    local hunks = {}
    for _, hunk in ipairs(op.hunks or {}) do
      local text = string.format('%s @%s +%s/-%s %s', tostring(hunk.id), tostring(hunk.line), tostring(hunk.lines),
        tostring(hunk.removedLines), tostring(hunk.state))
      if hunk.revertedBy then
        text = text .. ' by op ' .. tostring(hunk.revertedBy)
      end
      table.insert(hunks, text)
    end
    local who = 'session ' .. tostring(op.session) .. ' turn ' .. tostring(op.turn)
    if op.agent and op.agent ~= '' then
      who = op.agent .. ' ' .. who
    end
    local when = type(op.time) == 'number' and os.date('%H:%M:%S', math.floor(op.time / 1000)) or '?'
    table.insert(lines, string.format('op %-4s %s %-8s %s v%s->v%s  %s  [%s]%s%s', tostring(op.op), when,
      tostring(op.method), tostring(op.name or op.path or op.uri), tostring(op.versionBefore), tostring(op.versionAfter),
      who, table.concat(hunks, '; '), op.reverts and (' reverts ' .. table.concat(op.reverts, ',')) or '',
      op.inEffect == false and '  (undone)' or ''))
  end
  if #lines == 0 then
    lines = { 'no agent edits recorded' }
  end
  if result.journal then
    table.insert(lines, '')
    table.insert(lines, 'journal: ' .. tostring(result.journal))
  end
  return lines
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
  show_scratch('log', log_lines(result))
  return result
end

function M.undo(args)
  local opts = { confirm = false } -- the user asked: no confirmation of their own undo
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
  if type(result.reverted) == 'table' and #result.reverted > 0 then
    text = text .. ' ' .. table.concat(result.reverted, ', ')
  end
  local versions = {}
  for _, file in ipairs(type(result.files) == 'table' and result.files or {}) do
    table.insert(versions, tostring(file.name) .. ' at version ' .. tostring(file.version))
  end
  if #versions > 0 then
    text = text .. ' (' .. table.concat(versions, ', ') .. ')'
  end
  notify(text)
  return result
end

function M.review()
  return require('hashline.review').review_command()
end

function M.accept(args)
  return require('hashline.review').decide_command('accept', args)
end

function M.reject(args)
  return require('hashline.review').decide_command('reject', args)
end

-- :[range]HashlineSendToClaude — the lines (the current one without a range) as an at-mention
-- to every Claude Code connected to this sidecar's Claude IDE server (see :help hashline-claude).
function M.send_to_claude(args)
  local request = require('hashline.request')
  local params = { uri = vim.uri_from_bufnr(0), from = args.line1, to = args.line2 }
  local result, err = request.command(0, 'hashline.sendToClaude', params)
  if not result then
    return notify(describe_error('hashline.sendToClaude', err), vim.log.levels.ERROR)
  end
  if result.status == 'refused' then
    return notify(describe_refusal('hashline.sendToClaude', result), vim.log.levels.WARN)
  end
  if (result.sent or 0) == 0 then
    return notify(tostring(result.note or 'no Claude Code is connected'), vim.log.levels.WARN)
  end
  notify(string.format('lines %d-%d sent to Claude Code (%d connection%s)', args.line1, args.line2,
    result.sent, result.sent == 1 and '' or 's'))
  return result
end

function M.conflicts()
  return require('hashline.reconcile').conflicts_command()
end

function M.resolve(args)
  return require('hashline.reconcile').resolve_command(args)
end

function M.attach()
  local client_id, reason = hashline.attach(0)
  if not client_id then
    return notify('not attached: ' .. tostring(reason), vim.log.levels.WARN)
  end
  notify('attached (client ' .. client_id .. ')')
  return client_id
end

-- :HashlineRestart — every sidecar stopped and started again, its buffers re-attached
-- (hashline.supervisor; also after it gave up on a crashing sidecar).
function M.restart()
  return require('hashline.supervisor').restart()
end

return M
