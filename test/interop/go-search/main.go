// A Go program of ours that does what LeakIX's Go client's GetSearchResults and Next() do
// (spec/leakix-api.md, "What the two clients send"): GET {endpoint}/search?scope=…&q=…&page=N
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
	"net/http"
	"net/url"
	"os"
	"time"
)

type Event struct {
	EventType        string    `json:"event_type"`
	EventSource      string    `json:"event_source"`
	EventPipeline    []string  `json:"event_pipeline"`
	EventFingerprint string    `json:"event_fingerprint"`
	IP               string    `json:"ip"`
	Host             string    `json:"host"`
	Reverse          string    `json:"reverse"`
	Port             string    `json:"port"`
	Mac              string    `json:"mac"`
	Vendor           string    `json:"vendor"`
	Transport        []string  `json:"transport"`
	Protocol         string    `json:"protocol"`
	HTTP             HTTP      `json:"http"`
	Summary          string    `json:"summary"`
	Time             time.Time `json:"time"`
	SSL              SSL       `json:"ssl"`
	SSH              SSH       `json:"ssh"`
	Service          Service   `json:"service"`
	Leak             Leak      `json:"leak"`
	Tags             []string  `json:"tags"`
	GeoIP            GeoIP     `json:"geoip"`
	Network          Network   `json:"network"`
}

type HTTP struct {
	Root        string            `json:"root"`
	URL         string            `json:"url"`
	Status      int               `json:"status"`
	Length      int64             `json:"length"`
	Header      map[string]string `json:"header"`
	Title       string            `json:"title"`
	FaviconHash string            `json:"favicon_hash"`
}

type SSL struct {
	Detected    bool        `json:"detected"`
	Enabled     bool        `json:"enabled"`
	JARM        string      `json:"jarm"`
	CypherSuite string      `json:"cypher_suite"`
	Version     string      `json:"version"`
	Certificate Certificate `json:"certificate"`
}

type Certificate struct {
	CN          string    `json:"cn"`
	Domain      []string  `json:"domain"`
	Fingerprint string    `json:"fingerprint"`
	KeyAlgo     string    `json:"key_algo"`
	KeySize     int       `json:"key_size"`
	IssuerName  string    `json:"issuer_name"`
	NotBefore   time.Time `json:"not_before"`
	NotAfter    time.Time `json:"not_after"`
	Valid       bool      `json:"valid"`
}

type SSH struct {
	Fingerprint string `json:"fingerprint"`
	Version     int    `json:"version"`
	Banner      string `json:"banner"`
	Motd        string `json:"motd"`
}

type Service struct {
	Credentials Credentials `json:"credentials"`
	Software    Software    `json:"software"`
}

type Credentials struct {
	NoAuth   bool   `json:"noauth"`
	Username string `json:"username"`
	Password string `json:"password"`
	Key      string `json:"key"`
	Raw      []byte `json:"raw"`
}

type Software struct {
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	OS          string   `json:"os"`
	Modules     []Module `json:"modules"`
	Fingerprint string   `json:"fingerprint"`
}

type Module struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Fingerprint string `json:"fingerprint"`
}

type Leak struct {
	Stage    string  `json:"stage"`
	Type     string  `json:"type"`
	Severity string  `json:"severity"`
	Dataset  Dataset `json:"dataset"`
}

type Dataset struct {
	Rows        int64    `json:"rows"`
	Files       int64    `json:"files"`
	Size        int64    `json:"size"`
	Collections int64    `json:"collections"`
	Infected    bool     `json:"infected"`
	RansomNotes []string `json:"ransom_notes"`
}

type GeoIP struct {
	ContinentName  string   `json:"continent_name"`
	RegionISOCode  string   `json:"region_iso_code"`
	CityName       string   `json:"city_name"`
	CountryISOCode string   `json:"country_iso_code"`
	CountryName    string   `json:"country_name"`
	RegionName     string   `json:"region_name"`
	Location       Location `json:"location"`
}

type Location struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

type Network struct {
	OrganizationName string `json:"organization_name"`
	ASN              int    `json:"asn"`
	Network          string `json:"network"`
}

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
