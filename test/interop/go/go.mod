module l9kit.dev/test/gobytes

go 1.19

require l9kit.dev/test/l9event v0.0.0

// Our own event types, shared by the interop programs.
replace l9kit.dev/test/l9event => ../go-l9event
