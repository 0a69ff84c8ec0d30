module lspcheck

go 1.26.0
