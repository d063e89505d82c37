// Reads event documents, one per line, decodes each into our own Go struct (the
// specification's members in the specification's order, with the original's Go types) and
// writes it again with a default json.NewEncoder: the bytes the original tools write.
// Standard library only. A line that does not decode is reported as "line N: error" on
// standard error, and the exit status is then 1; every other line gives one output line.
//
// Usage: gobytes < events.jsonl > reencoded.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"l9kit.dev/test/l9event"
	"os"
)

// Event is the original's event document (go-l9event), as a type of this program.
type Event l9event.Event

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	encoder := json.NewEncoder(out) // defaults: HTML-safe escaping, one line per value
	failed := false
	for n := 1; ; n++ {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var event Event
			if decodeErr := json.Unmarshal(line, &event); decodeErr != nil {
				fmt.Fprintf(os.Stderr, "line %d: %v\n", n, decodeErr)
				failed = true
			} else if encodeErr := encoder.Encode(&event); encodeErr != nil {
				fmt.Fprintf(os.Stderr, "line %d: %v\n", n, encodeErr)
				failed = true
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "reading: %v\n", err)
			os.Exit(2)
		}
	}
	out.Flush()
	if failed {
		os.Exit(1)
	}
}
