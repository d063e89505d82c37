// A Go program of ours that does what LeakIX's Go client's GetChannel does (docs/specification.md,
// "What the two clients send"): dial ws://HOST:PORT/ws/SCOPE with the headers `Origin: HOST:PORT`
// and `api-key`, then decode each message as one L9Event (the original's field types: time.Time
// for times, int64 for sizes, []byte for raw). It prints "connected", then one line per event
// ("event SOURCE IP TIME"), and exits after COUNT events. Built offline with Debian's
// golang-github-gorilla-websocket-dev (go.mod replaces the module by /usr/share/gocode).
//
// Usage: channel HOST:PORT SCOPE API_KEY COUNT
package main

import (
	"fmt"
	"l9kit.dev/test/l9event"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/gorilla/websocket"
)

// Event is the original's event document (go-l9event), as a type of this program.
type Event l9event.Event

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: channel HOST:PORT SCOPE API_KEY COUNT")
		os.Exit(2)
	}
	host, scope, key := os.Args[1], os.Args[2], os.Args[3]
	count, err := strconv.Atoi(os.Args[4])
	if err != nil {
		fmt.Fprintln(os.Stderr, "COUNT:", err)
		os.Exit(2)
	}
	header := http.Header{}
	header.Set("Origin", host)
	header.Set("api-key", key)
	dialer := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	conn, response, err := dialer.Dial("ws://"+host+"/ws/"+scope, header)
	if err != nil {
		status := 0
		if response != nil {
			status = response.StatusCode
		}
		fmt.Printf("refused %d %v\n", status, err)
		os.Exit(1)
	}
	defer conn.Close()
	fmt.Println("connected")
	for i := 0; i < count; i++ {
		var event Event
		if err := conn.ReadJSON(&event); err != nil {
			fmt.Printf("error %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("event %s %s %s\n", event.EventSource, event.IP, event.Time.UTC().Format(time.RFC3339Nano))
	}
}
