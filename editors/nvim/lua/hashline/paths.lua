-- File path rules of the OS Neovim runs on, for attach.lua's workspace roots: joining a directory
-- and a name with the OS's separator, dropping a trailing separator, and whether a path is a
-- directory or lies below it — on Windows with either separator and ignoring case (NTFS), on
-- macOS ignoring case (APFS's default), elsewhere byte for byte with '/'. M.for_os(name) gives
-- the rules of another OS ('windows', 'macos', 'posix'), so they are testable anywhere.
local M = {}

local function rules(os_name)
  local windows = os_name == 'windows'
  local R = {
    sep = windows and '\\' or '/',
    seps = windows and '[\\/]' or '/', -- a Lua pattern matching one separator
    fold_case = windows or os_name == 'macos',
  }

  -- `dir` and `name` joined by one separator (none added when `dir` already ends in one).
  function R.join(dir, name)
    if dir:sub(-1):match(R.seps) then
      return dir .. name
    end
    return dir .. R.sep .. name
  end

  -- `dir` without trailing separators, except a root ('/', 'C:\', '\\') keeps its own.
  function R.strip_trailing(dir)
    local stripped = dir:gsub(R.seps .. '+$', '')
    if stripped == '' or (windows and stripped:match('^%a:$')) then
      return dir:sub(1, #stripped + 1)
    end
    return stripped
  end

  -- The form two paths are compared in: one separator, the OS's case rule, no trailing separator.
  local function comparable(path)
    local p = R.strip_trailing(path)
    if windows then
      p = p:gsub('/', '\\')
    end
    if R.fold_case then
      p = p:lower()
    end
    return p
  end

  -- Whether `path` is `dir` or lies below it (by name; nothing on disk is read).
  function R.is_within(path, dir)
    local p, d = comparable(path), comparable(dir)
    if p == d then
      return true
    end
    local sep = windows and '\\' or '/'
    if d:sub(-1) ~= sep then
      d = d .. sep
    end
    return p:sub(1, #d) == d
  end

  return R
end

function M.for_os(os_name)
  return rules(os_name)
end

local function current_os()
  if vim.fn.has('win32') == 1 then
    return 'windows'
  end
  if vim.fn.has('mac') == 1 then
    return 'macos'
  end
  return 'posix'
end

local current = rules(current_os())
M.sep = current.sep
M.join = current.join
M.strip_trailing = current.strip_trailing
M.is_within = current.is_within

return M
