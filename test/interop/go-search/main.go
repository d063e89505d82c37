// A Go program of ours that does what LeakIX's Go client's GetSearchResults and Next() do
// (docs/specification.md, "What the two clients send"): GET {endpoint}/search?scope=…&q=…&page=N
// with both values url.QueryEscape'd, headers Accept: application/json and api-key, a 5 s
// timeout; on 429 it parses x-limited-for with time.ParseDuration (panicking if it cannot, as
// the original does), sleeps and asks again; otherwise it decodes the body as []Event (the
// original L9Event's field types: time.Time for times, int64 for sizes, []byte for raw; an empty
// body is a decode error that ends the paging). Pages 0, 1, 2, … until a page adds nothing.
// Standard library only.
//
// It prints one line per request ("GET TARGET STATUS"), one per event ("event SOURCE IP TIME"),
// and at the end "end PAGES EVENTS WAITS" or "error MESSAGE".
//
// Usage: search BASE_URL SCOPE QUERY API_KEY
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"l9kit.dev/test/l9event"
	"net/http"
	"net/url"
	"os"
	"time"
)

// Event is the original's event document (go-l9event), as a type of this program.
type Event l9event.Event

type client struct {
	endpoint string
	key      string
	http     *http.Client
	waits    int
}

// page asks one page, waiting out 429s as x-limited-for says.
func (c *client) page(scope, query string, page int) ([]Event, error) {
	target := fmt.Sprintf("/search?scope=%s&q=%s&page=%d", url.QueryEscape(scope), url.QueryEscape(query), page)
	for {
		req, err := http.NewRequest("GET", c.endpoint+target, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("api-key", c.key)
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		fmt.Printf("GET %s %d\n", target, resp.StatusCode)
		if resp.StatusCode == 429 {
			wait, err := time.ParseDuration(resp.Header.Get("x-limited-for"))
			if err != nil {
				panic(err)
			}
			c.waits++
			time.Sleep(wait)
			continue
		}
		var events []Event
		if err := json.Unmarshal(body, &events); err != nil {
			return nil, fmt.Errorf("page %d (status %d): %v", page, resp.StatusCode, err)
		}
		return events, nil
	}
}

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: search BASE_URL SCOPE QUERY API_KEY")
		os.Exit(2)
	}
	c := &client{endpoint: os.Args[1], key: os.Args[4], http: &http.Client{Timeout: 5 * time.Second}}
	scope, query := os.Args[2], os.Args[3]
	total := 0
	for page := 0; ; page++ {
		events, err := c.page(scope, query, page)
		if err != nil {
			fmt.Printf("error %v\n", err)
			return
		}
		if len(events) == 0 {
			fmt.Printf("end %d %d %d\n", page, total, c.waits)
			return
		}
		for _, e := range events {
			fmt.Printf("event %s %s %s\n", e.EventSource, e.IP, e.Time.UTC().Format(time.RFC3339Nano))
		}
		total += len(events)
	}
}
