-- hashline.paths (the plugin's path rules) for Windows, macOS and other POSIX systems, checked on
-- any OS through paths.for_os: joining, trailing separators, "is this file inside that root" with
-- either separator and the OS's case rule; then attach.root_for on this machine's real files (a
-- root marker found, the current directory taken when it holds the file, a sibling not taken).
local H = dofile(os.getenv('REPO_ROOT') .. '/tests/editors/neovim/common.lua')
local paths = require('hashline.paths')

local function eq(got, want, what)
  if got ~= want then
    error(string.format('%s: got %s, want %s', what, vim.inspect(got), vim.inspect(want)), 2)
  end
end

H.test('windows: join uses a backslash, once', function()
  local win = paths.for_os('windows')
  eq(win.join('C:\\Users\\me\\proj', '.git'), 'C:\\Users\\me\\proj\\.git', 'plain dir')
  eq(win.join('C:\\Users\\me\\proj\\', '.git'), 'C:\\Users\\me\\proj\\.git', 'trailing backslash')
  eq(win.join('C:/Users/me/proj/', '.git'), 'C:/Users/me/proj/.git', 'trailing slash')
  eq(win.join('C:\\', '.git'), 'C:\\.git', 'drive root')
end)

H.test('windows: trailing separators dropped, roots kept', function()
  local win = paths.for_os('windows')
  eq(win.strip_trailing('C:\\Users\\me\\proj\\'), 'C:\\Users\\me\\proj', 'backslash')
  eq(win.strip_trailing('C:/Users/me/proj//'), 'C:/Users/me/proj', 'slashes')
  eq(win.strip_trailing('C:\\'), 'C:\\', 'drive root')
  eq(win.strip_trailing('\\\\server\\share\\'), '\\\\server\\share', 'UNC share')
end)

H.test('windows: is_within ignores case and mixes separators', function()
  local win = paths.for_os('windows')
  assert(win.is_within('C:\\Users\\Me\\Proj\\src\\a.lua', 'c:/users/me/proj'), 'file below, other case and slashes')
  assert(win.is_within('c:\\users\\me\\proj', 'C:\\Users\\Me\\Proj\\'), 'the root itself')
  assert(win.is_within('D:\\work\\x.txt', 'D:\\'), 'below a drive root')
  assert(not win.is_within('C:\\Users\\me\\proj2\\a.lua', 'C:\\Users\\me\\proj'), 'a sibling with the same prefix')
  assert(not win.is_within('D:\\Users\\me\\proj\\a.lua', 'C:\\Users\\me\\proj'), 'another drive')
end)

H.test('macos: is_within ignores case, only / separates', function()
  local mac = paths.for_os('macos')
  assert(mac.is_within('/Users/Me/Proj/src/a.lua', '/users/me/proj'), 'other case')
  assert(not mac.is_within('/Users/me/proj2/a.lua', '/Users/me/proj'), 'a sibling')
  eq(mac.join('/Users/me/proj', '.git'), '/Users/me/proj/.git', 'join')
end)

H.test('posix: byte-exact, / only, / stays /', function()
  local posix = paths.for_os('posix')
  assert(posix.is_within('/home/me/proj/a.lua', '/home/me/proj/'), 'below')
  assert(not posix.is_within('/home/me/Proj/a.lua', '/home/me/proj'), 'case matters')
  assert(not posix.is_within('/home/me/proj\\x/a.lua', '/home/me/proj'), 'a backslash is a name character')
  assert(posix.is_within('/etc/hosts', '/'), 'below the root')
  eq(posix.strip_trailing('/'), '/', 'root')
  eq(posix.strip_trailing('/home/me/proj//'), '/home/me/proj', 'trailing slashes')
  eq(posix.join('/', 'x'), '/x', 'join at the root')
end)

H.test('this OS: root_for finds the marker, takes the cwd that holds the file, not a sibling', function()
  local attach = require('hashline.attach')
  require('hashline.config').setup({ root_markers = { '.git' } })
  local base = H.work .. '/ws'
  vim.fn.mkdir(base .. '/proj/.git', 'p')
  vim.fn.mkdir(base .. '/proj/src', 'p')
  vim.fn.mkdir(base .. '/plain/deep', 'p')
  vim.fn.mkdir(base .. '/plain2', 'p')
  local real = H.compat.uv.fs_realpath(base)
  eq(attach.root_for(real .. '/proj/src/a.lua'), real .. '/proj', 'marker')
  vim.cmd('cd ' .. vim.fn.fnameescape(real .. '/plain'))
  eq(attach.root_for(real .. '/plain/deep/b.lua'), real .. '/plain', 'cwd holding the file')
  eq(attach.root_for(real .. '/plain2/c.lua'), real .. '/plain2', 'a sibling of the cwd')
end)

vim.cmd('qall!')
