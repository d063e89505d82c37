// A Go program of ours that does what LeakIX's Go client's GetChannel does (spec/leakix-api.md,
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
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/gorilla/websocket"
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
