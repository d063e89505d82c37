// The Go side of test/languages/go.test.ts, with the generated package schema/types/go.
//
//	roundtrip event|lookup|subdomains|error|report   each line of stdin a JSON document: decoded into the
//	                                    type, encoded again (SetEscapeHTML(false)), one line out;
//	                                    a line that fails prints "error: ..." instead
//	roundtrip event-escaped             the same for events, with the encoder's default escaping
//	patterns                            the pattern matrix (test/languages/support.ts): for each
//	                                    pattern, one line of 1/0 per string, from Go's regexp
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"l9kit.dev/l9types"
)

func roundTrip(kind string, line []byte) ([]byte, error) {
	var value interface{}
	switch kind {
	case "event", "event-escaped":
		value = new(l9types.Event)
	case "lookup":
		value = new(l9types.LookupResult)
	case "subdomains":
		value = new([]l9types.Subdomain)
	case "error":
		value = new(l9types.ErrorBody)
	case "report":
		value = new(l9types.ConformReport)
	default:
		return nil, fmt.Errorf("unknown kind %q", kind)
	}
	if err := json.Unmarshal(line, value); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	// event-escaped: the encoder's default, HTML-safe escaping (what `l9kit normalize --escape go` writes).
	encoder.SetEscapeHTML(kind == "event-escaped")
	if err := encoder.Encode(value); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func unhex(line string) string {
	text, err := hex.DecodeString(strings.TrimSpace(line))
	if err != nil {
		fail(err)
	}
	return string(text)
}

func patterns(lines []string) {
	count, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil {
		fail(err)
	}
	texts := lines[1+count:]
	for _, line := range lines[1 : 1+count] {
		re := regexp.MustCompile(unhex(line))
		row := make([]byte, len(texts))
		for i, text := range texts {
			row[i] = '0'
			if re.MatchString(unhex(text)) {
				row[i] = '1'
			}
		}
		fmt.Println(string(row))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: roundtrip event|lookup|subdomains|error|report, or patterns"))
	}
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 64<<20)
	var lines []string
	for scanner.Scan() {
		lines = append(lines, scanner.Text())
	}
	if err := scanner.Err(); err != nil {
		fail(err)
	}
	if os.Args[1] == "patterns" {
		patterns(lines)
		return
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, line := range lines {
		encoded, err := roundTrip(os.Args[1], []byte(line))
		if err != nil {
			fmt.Fprintf(out, "error: %v\n", err)
			continue
		}
		out.Write(encoded)
	}
}
