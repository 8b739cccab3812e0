-- Neovim 0.7+ (Debian's): attach tollgate's language server to the buffer of TG_FILE, wait for its
-- diagnostics, write them to TG_OUT one per line ("line:col code severity"), and quit.
-- docs/editors.md shows the same setup for an interactive Neovim.
vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.TG_FILE))
local client = vim.lsp.start_client({
  name = 'tollgate',
  cmd = { vim.env.TG_NODE, vim.env.TG_BIN, 'lsp', '--stdio' },
  root_dir = vim.env.TG_ROOT,
})
vim.lsp.buf_attach_client(0, client)
vim.wait(180000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
  table.insert(lines, string.format('%d:%d %s %d', d.lnum, d.col, code, d.severity))
end
vim.fn.writefile(lines, vim.env.TG_OUT)
vim.lsp.stop_client(client)
vim.cmd('qa!')
