-- Sending hashline commands to the sidecar that mirrors a buffer: finds (or attaches) the client,
-- waits for it to be ready, sends `workspace/executeCommand` (or a plain request such as
-- `hashline/snapshot`) and hands back the server's result table unchanged — synchronously with
-- vim.wait, or to a callback. Used by init.lua's API and the user commands. Main loop only.
local config = require('hashline.config')
local compat = require('hashline.compat')
local attach = require('hashline.attach')

local M = {}

-- Client-side failures (the server never answered) carry these codes; the server's own refusals
-- come back as normal results ({status = 'refused', error = {...}}) and JSON-RPC errors keep
-- their numeric codes.
M.NO_CLIENT = 'NO_CLIENT'
M.TIMEOUT = 'TIMEOUT'
M.NOT_READY = 'NOT_READY'

local function failure(code, message)
  return { code = code, message = message }
end

local function rpc_error(err)
  if type(err) ~= 'table' then
    return { code = -32603, message = tostring(err) }
  end
  return { code = err.code, message = err.message, data = err.data }
end

local function resolve_buf(bufnr)
  if bufnr == nil or bufnr == 0 then
    return vim.api.nvim_get_current_buf()
  end
  return bufnr
end

-- The client for `bufnr`, attaching the buffer first if it is eligible. Returns client id or nil, err.
local function client_id_for(bufnr)
  local client = attach.client_of(bufnr)
  if client then
    return client.id
  end
  local client_id, reason = attach.attach(bufnr)
  if not client_id then
    return nil, failure(M.NO_CLIENT, 'buffer ' .. bufnr .. ' has no hashline client: ' .. tostring(reason))
  end
  return client_id
end

-- Sends `method` with `params` once the client is ready for `bufnr`; `done(result, err)` is called
-- exactly once, on the main loop. Returns a cancel function.
local function send(bufnr, method, params, timeout_ms, done)
  local finished = false
  local request_id, client
  local function finish(result, err)
    if not finished then
      finished = true
      done(result, err)
    end
  end
  local client_id, err = client_id_for(bufnr)
  if not client_id then
    finish(nil, err)
    return function() end
  end
  local started = compat.uv.now()
  local function go()
    if finished then
      return
    end
    client = vim.lsp.get_client_by_id(client_id)
    if not client then
      return finish(nil, failure(M.NO_CLIENT, 'the hashline client exited'))
    end
    if not attach.ready(client_id, bufnr) then
      if compat.uv.now() - started > timeout_ms then
        return finish(nil, failure(M.NOT_READY, 'the hashline server did not initialize in time'))
      end
      return vim.defer_fn(go, 10)
    end
    local ok
    ok, request_id = compat.request(client, method, params, function(rpc_err, result)
      if rpc_err then
        finish(nil, rpc_error(rpc_err))
      else
        finish(result, nil)
      end
    end, bufnr)
    if not ok then
      finish(nil, failure(M.NO_CLIENT, 'the hashline client has shut down'))
    end
  end
  go()
  return function()
    if not finished and client and request_id then
      pcall(compat.cancel_request, client, request_id)
    end
    finish(nil, failure(M.TIMEOUT, method .. ' got no answer within ' .. timeout_ms .. ' ms'))
  end
end

-- Runs `method` for `bufnr`. With opts.callback: asynchronous, callback(result, err) later and
-- the call returns true. Without: waits (vim.wait) and returns result or nil, err.
function M.run(bufnr, method, params, opts)
  opts = opts or {}
  bufnr = resolve_buf(bufnr)
  local timeout_ms = opts.timeout or config.get().timeout
  if opts.callback then
    local cancel
    local timer = compat.uv.new_timer()
    cancel = send(bufnr, method, params, timeout_ms, function(result, err)
      if timer then
        timer:stop()
        timer:close()
        timer = nil
      end
      opts.callback(result, err)
    end)
    if timer then
      timer:start(timeout_ms, 0, vim.schedule_wrap(function()
        cancel()
      end))
    end
    return true
  end
  if vim.in_fast_event() then
    return nil, failure(M.NOT_READY, 'synchronous hashline calls cannot run in a fast event; pass opts.callback')
  end
  local out, out_err, done = nil, nil, false
  local cancel = send(bufnr, method, params, timeout_ms, function(result, err)
    out, out_err, done = result, err, true
  end)
  if not done then
    vim.wait(timeout_ms, function()
      return done
    end, 5)
  end
  if not done then
    cancel()
  end
  return out, out_err
end

-- Runs `chain(done)`, an asynchronous sequence of calls that ends with done(result, err):
-- hands the outcome to opts.callback (and returns true), or waits for it like M.run.
function M.await(chain, opts)
  opts = opts or {}
  if opts.callback then
    chain(opts.callback)
    return true
  end
  if vim.in_fast_event() then
    return nil, failure(M.NOT_READY, 'synchronous hashline calls cannot run in a fast event; pass opts.callback')
  end
  local out, out_err, done = nil, nil, false
  chain(function(result, err)
    out, out_err, done = result, err, true
  end)
  -- each call in the chain has its own timeout; this only guards against a chain that never ends
  vim.wait(3 * (opts.timeout or config.get().timeout), function()
    return done
  end, 5)
  if not done then
    return nil, failure(M.TIMEOUT, 'no answer in time')
  end
  return out, out_err
end

-- workspace/executeCommand `command` with one argument object (the server's convention).
function M.command(bufnr, command, args, opts)
  return M.run(bufnr, 'workspace/executeCommand', { command = command, arguments = { args } }, opts)
end

return M
