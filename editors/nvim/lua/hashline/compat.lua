-- Version shims, so the rest of the plugin is written once for Neovim 0.7 (Debian 12) through the
-- current release (tested: 0.7.2, 0.10.4, 0.12.4): the current API where this Neovim has it, the
-- old one where it does not, and nothing that warns as deprecated on any of them — vim.uv,
-- vim.islist, vim.validate's argument form, starting/stopping/finding LSP clients, the client
-- method call style (dot before 0.11, colon after), the autocommand/mapping buffer key (`buf`
-- on 0.12+), attached buffers, the buffer version the client last reported, and the
-- :checkhealth reporters. Has no dependency on the rest of the plugin (the raw-client test
-- suites load it with dofile). Main loop only.
local M = {}

function M.has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- libuv: vim.uv (0.10+) or vim.loop (its old name).
M.uv = vim.uv or vim.loop

-- vim.islist (0.10+) or vim.tbl_islist.
M.islist = vim.islist or vim.tbl_islist

-- 0.11 deprecated vim.validate{name = {value, types, optional}} for vim.validate(name, value,
-- types, optional); one check per call here, in whichever form this Neovim wants.
local validate_args = M.has('0.11')
function M.validate(name, value, types, optional)
  if validate_args then
    return vim.validate(name, value, types, optional)
  end
  return vim.validate({ [name] = { value, types, optional } })
end

-- `opts` with the buffer key of nvim_create_autocmd/nvim_exec_autocmds/vim.keymap.set set to
-- `bufnr`: `buf` on 0.12+ (where `buffer` is deprecated), `buffer` before.
local buf_key = M.has('0.12') and 'buf' or 'buffer'
function M.with_buf(opts, bufnr)
  opts[buf_key] = bufnr
  return opts
end

-- All LSP clients, optionally only those named `name` and/or attached to `bufnr`.
function M.get_clients(filter)
  filter = filter or {}
  if vim.lsp.get_clients then -- 0.10+
    return vim.lsp.get_clients({ bufnr = filter.bufnr, name = filter.name })
  end
  local list = {}
  if filter.bufnr then
    for _, client in pairs(vim.lsp.buf_get_clients(filter.bufnr)) do
      table.insert(list, client)
    end
  else
    for _, client in pairs(vim.lsp.get_active_clients()) do
      table.insert(list, client)
    end
  end
  if filter.name then
    list = vim.tbl_filter(function(client)
      return client.name == filter.name
    end, list)
  end
  return list
end

-- Whether any LSP client, initialized or not, is attached to `bufnr` — the test Neovim's own
-- on_lines listener makes before it detaches itself from the buffer for good (see
-- hashline.supervisor). `extra_ids`: ids of clients that may not be initialized yet (0.7 lists
-- only initialized ones).
function M.any_client_attached(bufnr, extra_ids)
  if vim.lsp.get_clients then -- 0.10+
    return #vim.lsp.get_clients({ bufnr = bufnr, _uninitialized = true }) > 0
  end
  if next(vim.lsp.buf_get_clients(bufnr)) ~= nil then
    return true
  end
  for id in pairs(extra_ids or {}) do
    if vim.lsp.buf_is_attached(bufnr, id) then
      return true
    end
  end
  return false
end

-- 0.11 made client methods colon methods; the dot form warns there (removal in 0.13).
local colon_methods = M.has('0.11')

-- Starts a client without attaching any buffer and without reusing a running one (what
-- vim.lsp.start_client did; 0.11 deprecated it for vim.lsp.start{attach = false}).
-- Returns the client id or nil.
function M.start_client(conf)
  if colon_methods then
    return vim.lsp.start(conf, {
      attach = false,
      reuse_client = function()
        return false
      end,
    })
  end
  return vim.lsp.start_client(conf)
end

-- Stops a client (a client object or id); `force` skips the shutdown request.
function M.stop(client, force)
  if type(client) == 'number' then
    client = vim.lsp.get_client_by_id(client)
  end
  if not client then
    return
  end
  if colon_methods then
    return client:stop(force)
  end
  return client.stop(force)
end

function M.request(client, method, params, handler, bufnr)
  if colon_methods then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- A request that waits (vim.wait) for the answer: {result=, err=} or nil and why.
function M.request_sync(client, method, params, timeout_ms, bufnr)
  if colon_methods then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

function M.notify(client, method, params)
  if colon_methods then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

function M.cancel_request(client, request_id)
  if colon_methods then
    return client:cancel_request(request_id)
  end
  return client.cancel_request(request_id)
end

function M.is_stopped(client)
  if colon_methods then
    return client:is_stopped()
  end
  return client.is_stopped()
end

-- Whether `client` has `bufnr` attached (0.12 stores the buffer's languageId there, older
-- versions `true`).
function M.attached(client, bufnr)
  local buffers = client and client.attached_buffers
  local value = buffers and buffers[bufnr]
  return value ~= nil and value ~= false
end

-- The version the LSP client uses for `bufnr` (what it put in its last didOpen/didChange). 0.12
-- keeps no entry until the first change and answers 0, the didOpen version, for a missing one
-- (older versions answer nil: then the changedtick, which they send in didOpen).
function M.buf_version(bufnr)
  local versions = vim.lsp.util.buf_versions
  local version = versions and versions[bufnr]
  if version == nil then
    version = vim.api.nvim_buf_get_changedtick(bufnr)
  end
  return version
end

-- The :checkhealth reporters of this Neovim: vim.health.start/ok/... (0.10+),
-- vim.health.report_* (0.8-0.9) or the health#report_* Vimscript functions (0.7).
function M.health()
  local h = vim.health
  if h and h.start then
    return { start = h.start, ok = h.ok, warn = h.warn, error = h.error, info = h.info }
  end
  if h and h.report_start then
    return { start = h.report_start, ok = h.report_ok, warn = h.report_warn, error = h.report_error,
      info = h.report_info }
  end
  local function fn(name)
    return function(msg, ...)
      if select('#', ...) > 0 then
        return vim.fn['health#report_' .. name](msg, ...)
      end
      return vim.fn['health#report_' .. name](msg)
    end
  end
  return { start = fn('start'), ok = fn('ok'), warn = fn('warn'), error = fn('error'), info = fn('info') }
end

return M
