-- Tells the hashline sidecar what the user has selected and sees (`hashline/context`), so an
-- agent's "fix this" can name the selection (:help hashline-context): the current window's buffer
-- with its visual selection (or the cursor as an empty range), and every window of the tab page
-- with the lines it shows. Positions are 0-based, characters in the client's offset encoding.
-- Debounced (`delay` ms after the last cursor move, mode change, scroll or window switch), sent
-- only when it changed. Off with setup{ share_selection = false }. Main loop only.
local compat = require('hashline.compat')
local config = require('hashline.config')

local M = {}

local delay = 150 -- ms
local generation = 0 -- the newest scheduled send; older timers do nothing
local last_sent = {} -- client id -> the params last sent (encoded), to skip repeats
local group

-- Code units of `encoding` in the first `col` bytes of `line`.
local function units(line, col, encoding)
  if encoding == 'utf-8' then
    return col
  end
  local count = 0
  for i = 1, math.min(col, #line) do
    local byte = line:byte(i)
    if byte < 0x80 or byte >= 0xC0 then -- the first byte of a code point
      count = count + 1
      if encoding == 'utf-16' and byte >= 0xF0 then -- outside the BMP: a surrogate pair
        count = count + 1
      end
    end
  end
  return count
end

local function line_text(bufnr, row)
  return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
end

local function position(bufnr, row, col, encoding)
  return { line = row, character = units(line_text(bufnr, row), col, encoding) }
end

-- The selection of the current window: the visual area in Visual mode, else the cursor.
local function selection(bufnr, encoding)
  local mode = vim.api.nvim_get_mode().mode
  local cursor = vim.api.nvim_win_get_cursor(0) -- {1-based row, byte col}
  local crow, ccol = cursor[1] - 1, cursor[2]
  local visual = mode == 'v' or mode == 'V' or mode == '\22'
  if not visual then
    local here = position(bufnr, crow, ccol, encoding)
    return { start = here, ['end'] = here }
  end
  local v = vim.fn.getpos('v') -- {buf, 1-based row, 1-based col, off}
  local vrow, vcol = v[2] - 1, v[3] - 1
  local srow, scol, erow, ecol = vrow, vcol, crow, ccol
  if erow < srow or (erow == srow and ecol < scol) then
    srow, scol, erow, ecol = erow, ecol, srow, scol
  end
  if mode == 'V' then -- whole lines: through the start of the next one (or the last line's end)
    local last = vim.api.nvim_buf_line_count(bufnr)
    local stop = erow + 1 < last and { line = erow + 1, character = 0 }
      or position(bufnr, erow, #line_text(bufnr, erow), encoding)
    return { start = { line = srow, character = 0 }, ['end'] = stop }
  end
  -- Characterwise (and blockwise, as its corners): the end is inclusive in Neovim.
  local text = line_text(bufnr, erow)
  local width = #(vim.fn.strcharpart(text:sub(ecol + 1), 0, 1))
  return { start = position(bufnr, srow, scol, encoding), ['end'] = position(bufnr, erow, ecol + width, encoding) }
end

local function encoding_of(client)
  local name = client.offset_encoding or 'utf-16'
  return name:gsub('_', '-'):lower()
end

-- The params for `client`: only buffers it is attached to.
local function params_for(client)
  local encoding = encoding_of(client)
  local current = vim.api.nvim_get_current_buf()
  local params = { active = vim.NIL, visible = {} }
  if compat.attached(client, current) then
    params.active = {
      uri = vim.uri_from_bufnr(current),
      version = compat.buf_version(current),
      selections = { selection(current, encoding) },
    }
  end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local bufnr = vim.api.nvim_win_get_buf(win)
    if compat.attached(client, bufnr) and vim.api.nvim_win_get_config(win).relative == '' then
      local first, last = vim.fn.line('w0', win), vim.fn.line('w$', win)
      table.insert(params.visible, {
        uri = vim.uri_from_bufnr(bufnr),
        version = compat.buf_version(bufnr),
        ranges = { { start = { line = first - 1, character = 0 }, ['end'] = { line = last - 1, character = 0 } } },
      })
    end
  end
  return params
end

-- Sends the current view to every hashline client whose view changed.
function M.send()
  for _, client in ipairs(compat.get_clients({ name = require('hashline.attach').client_name })) do
    if not compat.is_stopped(client) then
      local params = params_for(client)
      local encoded = vim.fn.json_encode(params)
      if last_sent[client.id] ~= encoded then
        last_sent[client.id] = encoded
        compat.notify(client, 'hashline/context', params)
      end
    end
  end
end

local function schedule()
  generation = generation + 1
  local mine = generation
  vim.defer_fn(function()
    if mine == generation then
      M.send()
    end
  end, delay)
end

-- Called when the hashline client attaches to a buffer: starts watching (once per session).
function M.watch(_)
  if config.get().share_selection == false then
    return
  end
  if not group then
    group = vim.api.nvim_create_augroup('hashline_context', { clear = true })
    vim.api.nvim_create_autocmd(
      { 'CursorMoved', 'CursorMovedI', 'ModeChanged', 'BufEnter', 'WinEnter', 'WinScrolled', 'VimResized' },
      { group = group, callback = schedule }
    )
  end
  schedule()
end

return M
