module github.com/retrylint/retrylint/plugin

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/retrylint/retrylint v0.0.0-00010101000000-000000000000
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/exp/typeparams v0.0.0-20231108232855-2478ac86f678 // indirect
	golang.org/x/sync v0.24.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
	honnef.co/go/tools v0.8.2 // indirect
)

replace github.com/retrylint/retrylint => ../
