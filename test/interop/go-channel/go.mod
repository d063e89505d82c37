module l9kit.dev/test/gochannel

go 1.19

require (
	github.com/gorilla/websocket v1.5.0
	l9kit.dev/test/l9event v0.0.0
)

// Debian's golang-github-gorilla-websocket-dev: built offline, nothing downloaded.
replace github.com/gorilla/websocket => /usr/share/gocode/src/github.com/gorilla/websocket

// Our own event types, shared by the interop programs.
replace l9kit.dev/test/l9event => ../go-l9event
