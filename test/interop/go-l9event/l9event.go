// Package l9event holds our own Go types of the event document: the specification's members in
// the specification's order, with the original's Go types (time.Time for times, int64 for sizes,
// []byte for raw). Shared by the interop programs beside it (go, go-search, go-channel), each of
// which names it in its go.mod with a replace to this folder: built offline, nothing downloaded.
package l9event

import "time"

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
