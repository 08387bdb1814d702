-- Version shims, so the rest of the plugin is written once for Neovim 0.7 (Debian 12) through the
-- current release: client lookup, client method call style (dot before 0.11, colon after), the
-- buffer version the LSP client last reported, and the :checkhealth reporters. Main loop only.
local M = {}

function M.has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- All LSP clients, optionally only those named `name` and/or attached to `bufnr`.
function M.get_clients(filter)
  filter = filter or {}
  local list
  if vim.lsp.get_clients then -- 0.10+
    list = vim.lsp.get_clients({ bufnr = filter.bufnr, name = filter.name })
    return list
  end
  list = {}
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

-- 0.11 made client methods colon methods; the dot form warns there and may go away.
local colon_methods = M.has('0.11')

function M.request(client, method, params, handler, bufnr)
  if colon_methods then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
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

-- The version the LSP client uses for `bufnr` (what it put in its last didOpen/didChange).
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
