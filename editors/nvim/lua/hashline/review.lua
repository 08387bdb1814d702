-- Review of agent edits in the editor (issue 9): signs on the pending (unreviewed) agent hunks of
-- each attached buffer, the :HashlineReview quickfix list with its accept/reject mappings, and
-- accept/reject of the hunk under the cursor. Everything comes from the sidecar's hashline.pending,
-- hashline.accept and hashline.reject; signs refresh asynchronously (after server edits, after
-- accept/reject, and on a debounce after the user's typing), so a review never blocks typing.
-- Uses sign_define/sign_place (Neovim 0.7). Main loop only.
local config = require('hashline.config')
local request = require('hashline.request')
local attach = require('hashline.attach')
local compat = require('hashline.compat')

local M = {}

M.sign_group = 'hashline_review'
M.sign_name = 'HashlinePending'
M.qf_title = 'hashline review'

-- bufnr -> { hunks = {pending hunk tables of this buffer}, timer = uv timer, watching = bool }
local state = {}
local defined = false

local function notify(msg, level)
  vim.notify('hashline: ' .. msg, level or vim.log.levels.INFO)
end

local function define_sign()
  if defined then
    return
  end
  defined = true
  local cfg = config.get()
  vim.fn.sign_define(M.sign_name, { text = cfg.review_sign_text or '▎', texthl = 'DiffChange' })
end

local function buf_state(bufnr)
  local s = state[bufnr]
  if not s then
    s = { hunks = {} }
    state[bufnr] = s
  end
  return s
end

-- Any buffer with a hashline client: the one to send a workspace-wide request through.
local function attached_buf(preferred)
  if preferred and vim.api.nvim_buf_is_valid(preferred) and attach.client_of(preferred) then
    return preferred
  end
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and attach.client_of(bufnr) then
      return bufnr
    end
  end
  return nil
end

local function buffer_of_uri(uri)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.uri_from_bufnr(bufnr) == uri then
      return bufnr
    end
  end
  return nil
end

-- One line about a hunk: what the agent wrote (or removed), shortened.
local function summary(hunk)
  local function first_line(text)
    if type(text) ~= 'string' or text == '' then
      return nil
    end
    return (text:gsub('\n.*$', ''))
  end
  local what = first_line(hunk.after)
  local prefix = ''
  if not what then
    what = first_line(hunk.before) or ''
    prefix = 'deleted: '
  end
  if #what > 60 then
    what = what:sub(1, 57) .. '...'
  end
  return string.format('+%s/-%s %s%s', tostring(hunk.lines), tostring(hunk.removedLines), prefix, what)
end
M.summary = summary

-- Places one sign per pending hunk of `bufnr`, at the line where the hunk is now.
local function place_signs(bufnr, hunks)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  define_sign()
  vim.fn.sign_unplace(M.sign_group, { buffer = bufnr })
  if config.get().review_signs == false then
    return
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  for _, hunk in ipairs(hunks) do
    if type(hunk.line) == 'number' then
      local lnum = math.max(1, math.min(hunk.line, count))
      vim.fn.sign_place(0, M.sign_group, M.sign_name, bufnr, { lnum = lnum, priority = 8 })
    end
  end
end

-- hashline.pending for `bufnr` (opts.all: the whole workspace). Asynchronous with opts.callback,
-- else waits like every API call. Returns the server's result: {status, count, files = {{name,
-- uri, path?, backend, hunks = {{id, op, line, lines, removedLines, before, after, ...}}}}}.
function M.pending(opts)
  opts = opts or {}
  local bufnr = opts.bufnr
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local params = {}
  local via = bufnr
  if opts.all then
    via = attached_buf(bufnr)
    if not via then
      local err = { code = request.NO_CLIENT, message = 'no buffer has a hashline client' }
      if opts.callback then
        opts.callback(nil, err)
        return true
      end
      return nil, err
    end
  else
    params.uri = vim.uri_from_bufnr(bufnr)
  end
  if opts.session then
    params.session = opts.session
  end
  if opts.turn then
    params.turn = opts.turn
  end
  if next(params) == nil then
    params = vim.empty_dict() -- an object, not []
  end
  return request.command(via, 'hashline.pending', params, opts)
end

-- The pending hunks of `bufnr` as last fetched (for signs and the hunk under the cursor).
function M.hunks(bufnr)
  local s = state[bufnr]
  return s and s.hunks or {}
end

-- Fetches the pending hunks of `bufnr` and redraws its signs; never waits.
function M.refresh(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or not attach.client_of(bufnr) then
    return
  end
  local s = buf_state(bufnr)
  s.generation = (s.generation or 0) + 1
  local generation = s.generation
  M.pending({ bufnr = bufnr, callback = function(result, _)
    if s.generation ~= generation or type(result) ~= 'table' or result.status ~= 'ok' then
      return
    end
    local hunks = {}
    for _, file in ipairs(result.files or {}) do
      for _, hunk in ipairs(file.hunks or {}) do
        table.insert(hunks, hunk)
      end
    end
    s.hunks = hunks
    place_signs(bufnr, hunks)
    if M.on_refresh then
      M.on_refresh(bufnr, hunks)
    end
  end })
end

-- Refreshes `bufnr` after `delay` ms, once for a burst of calls.
function M.schedule_refresh(bufnr, delay)
  local s = buf_state(bufnr)
  if not s.timer then
    s.timer = compat.uv.new_timer()
  end
  s.timer:stop()
  s.timer:start(delay or config.get().review_debounce, 0, vim.schedule_wrap(function()
    M.refresh(bufnr)
  end))
end

-- Every attached buffer, soon.
function M.refresh_all(delay)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and attach.client_of(bufnr) then
      M.schedule_refresh(bufnr, delay or 0)
    end
  end
end

-- Starts watching `bufnr`: a debounced refresh after the user's changes, and a first one now.
function M.watch(bufnr)
  if config.get().review_signs == false then
    return
  end
  local s = buf_state(bufnr)
  if s.watching then
    return
  end
  s.watching = true
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function()
      if not s.watching then
        return true -- detach
      end
      M.schedule_refresh(bufnr)
    end,
    on_detach = function()
      s.watching = false
    end,
  })
  vim.api.nvim_create_autocmd('BufWipeout', compat.with_buf({
    once = true,
    callback = function()
      M.forget(bufnr)
    end,
  }, bufnr))
  M.schedule_refresh(bufnr, 0)
end

function M.forget(bufnr)
  local s = state[bufnr]
  if s then
    s.watching = false
    if s.timer then
      s.timer:stop()
      s.timer:close()
    end
    state[bufnr] = nil
  end
end

-- The pending hunk of `bufnr` that covers `lnum` (1-based), or the nearest one above it on the
-- same line as a deletion.
function M.hunk_at(bufnr, lnum)
  for _, hunk in ipairs(M.hunks(bufnr)) do
    if type(hunk.line) == 'number' then
      local last = hunk.line + math.max((hunk.lines or 1), 1) - 1
      if lnum >= hunk.line and lnum <= last then
        return hunk
      end
    end
  end
  return nil
end

-- The review list's hunk ids by quickfix index, if the current quickfix list is ours.
local function qf_ids()
  local info = vim.fn.getqflist({ title = 1, context = 1 })
  local ctx = info.context
  if type(ctx) == 'table' and type(ctx.hashline_ids) == 'table' then
    return ctx.hashline_ids
  end
  return nil
end

-- The hunk id meant by a command without an id: the entry under the cursor in the review list,
-- else the pending hunk under the cursor (fetched now, so it is current).
function M.current_id()
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].buftype == 'quickfix' then
    local ids = qf_ids()
    return ids and ids[vim.fn.line('.')] or nil
  end
  local lnum = vim.fn.line('.')
  local result = M.pending({ bufnr = bufnr })
  if type(result) == 'table' and result.status == 'ok' then
    local hunks = {}
    for _, file in ipairs(result.files or {}) do
      for _, hunk in ipairs(file.hunks or {}) do
        table.insert(hunks, hunk)
      end
    end
    buf_state(bufnr).hunks = hunks
  end
  local hunk = M.hunk_at(bufnr, lnum)
  return hunk and hunk.id or nil
end

local function op_of(id)
  return (tostring(id):gsub('#.*$', ''))
end

-- Sends accept/reject of `id` (a hunk op#k or an op). Returns the result or nil, err.
local function decide(kind, id, opts)
  opts = opts or {}
  if id == nil then
    id = M.current_id()
    if id == nil then
      return nil, { code = 'NOT_FOUND', message = 'no pending agent hunk under the cursor' }
    end
  end
  id = tostring(id)
  local via = attached_buf(opts.bufnr)
  if not via then
    return nil, { code = request.NO_CLIENT, message = 'no buffer has a hashline client' }
  end
  local params = {}
  if kind == 'accept' and not id:find('#', 1, true) then
    params.op = id
  else
    params.hunk = id
  end
  if opts.confirm ~= nil and kind == 'reject' then
    params.confirm = opts.confirm
  end
  local function after(result, err)
    M.refresh_all(0)
    if vim.bo.buftype == 'quickfix' and qf_ids() then
      M.fill_quickfix({ keep_position = true })
    end
    return result, err
  end
  if opts.callback then
    local callback = opts.callback
    return request.command(via, 'hashline.' .. kind, params, { timeout = opts.timeout, callback = function(r, e)
      callback(after(r, e))
    end })
  end
  return after(request.command(via, 'hashline.' .. kind, params, opts))
end

-- accept(id?, opts?): marks a hunk (op#k) or a whole op reviewed; id defaults to the hunk under
-- the cursor. reject(id?, opts?): reverses a hunk or a whole op in the buffer (CONFLICT when the
-- user changed its lines). Both refresh the signs and the review list.
function M.accept(id, opts)
  return decide('accept', id, opts)
end

function M.reject(id, opts)
  return decide('reject', id, opts)
end

-- Fills the quickfix list with every pending hunk of the workspace: file, current line,
-- `op#k method: summary`. Returns the number of entries, or nil, err.
function M.fill_quickfix(opts)
  opts = opts or {}
  local result, err = M.pending({ all = true })
  if not result then
    return nil, err
  end
  if result.status ~= 'ok' then
    return nil, result.error
  end
  local items, ids = {}, {}
  for _, file in ipairs(result.files or {}) do
    local fname = file.path or (file.uri and vim.uri_to_fname(file.uri)) or file.name
    local bufnr = file.uri and buffer_of_uri(file.uri)
    for _, hunk in ipairs(file.hunks or {}) do
      local text = string.format('%s %s: %s', tostring(hunk.id), tostring(hunk.method), summary(hunk))
      if hunk.changedSince then
        text = text .. ' (changed since)'
      end
      local item = { filename = fname, lnum = type(hunk.line) == 'number' and hunk.line or 1, col = 1, text = text }
      if bufnr then
        item.bufnr = bufnr
        item.filename = nil
      end
      table.insert(items, item)
      table.insert(ids, hunk.id)
    end
  end
  local position = opts.keep_position and vim.fn.getqflist({ idx = 0 }).idx or 1
  local what = { title = M.qf_title, items = items, context = { hashline_ids = ids } }
  if opts.keep_position and qf_ids() then
    vim.fn.setqflist({}, 'r', what)
    if #items > 0 then
      vim.fn.setqflist({}, 'a', { idx = math.min(position, #items) })
    end
  else
    vim.fn.setqflist({}, ' ', what)
  end
  return #items
end

-- The quickfix window's buffer-local mappings (see :help hashline-review).
local function map_quickfix()
  local qfwin = vim.fn.getqflist({ winid = 0 }).winid
  if not qfwin or qfwin == 0 then
    return
  end
  local qfbuf = vim.api.nvim_win_get_buf(qfwin)
  local function act(kind, whole_op)
    return function()
      local ids = qf_ids()
      if not ids then
        return notify('this quickfix list is not the hashline review', vim.log.levels.WARN)
      end
      local id = ids[vim.fn.line('.')]
      if not id then
        return
      end
      if whole_op then
        id = op_of(id)
      end
      -- the user decides here: no second confirmation of their own reject
      local result, err = decide(kind, id, { confirm = false })
      M.report(kind, id, result, err)
    end
  end
  local maps = { a = { 'accept', false }, r = { 'reject', false }, A = { 'accept', true }, R = { 'reject', true } }
  for key, spec in pairs(maps) do
    vim.keymap.set('n', key, act(spec[1], spec[2]), compat.with_buf({ nowait = true,
      desc = 'hashline: ' .. spec[1] .. (spec[2] and ' the whole op' or ' this hunk') }, qfbuf))
  end
end

-- Shows the outcome of accept/reject as one message.
function M.report(kind, id, result, err)
  if not result then
    return notify(kind .. ' ' .. tostring(id) .. ' failed: ' .. tostring(err and err.message), vim.log.levels.ERROR)
  end
  if result.status == 'refused' then
    local e = result.error or {}
    return notify(string.format('%s %s refused: %s: %s', kind, tostring(id), tostring(e.code), tostring(e.message)),
      vim.log.levels.WARN)
  end
  local done = result.accepted or result.reverted
  local what = type(done) == 'table' and table.concat(done, ', ') or tostring(id)
  notify((kind == 'accept' and 'accepted ' or 'rejected ') .. what)
end

-- :HashlineReview — the quickfix list of pending hunks, opened, with the mappings.
function M.review_command()
  local count, err = M.fill_quickfix()
  if not count then
    return notify('review failed: ' .. tostring(err and err.message), vim.log.levels.ERROR)
  end
  if count == 0 then
    notify('no pending agent edits')
  end
  vim.cmd('copen')
  map_quickfix()
  return count
end

-- :HashlineAccept [id] / :HashlineReject [id]
function M.decide_command(kind, args)
  local id = args and args.args ~= '' and args.args or nil
  local result, err = decide(kind, id, { confirm = false })
  M.report(kind, id or 'the hunk under the cursor', result, err)
  return result
end

return M
