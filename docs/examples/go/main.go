// Decodes event documents into the Go types that quicktype generated from
// schema/event.schema.json (event.go, made by run.sh), encodes them again, and checks that
// every member survived the round trip. Standard library only.
//
// Usage: go run . FILE...   (each FILE one event document; prints one line per file)
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
)

// generic decodes JSON keeping numbers as written, so 1.50 and 1.5 compare by value below.
func generic(data []byte) (interface{}, error) {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.UseNumber()
	var value interface{}
	err := decoder.Decode(&value)
	return value, err
}

// differences lists the JSON pointers where the two values differ.
func differences(path string, before, after interface{}, out *[]string) {
	switch b := before.(type) {
	case map[string]interface{}:
		a, ok := after.(map[string]interface{})
		if !ok {
			*out = append(*out, path+" (was an object)")
			return
		}
		keys := make([]string, 0, len(b))
		for key := range b {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			value, present := a[key]
			if !present {
				*out = append(*out, path+"/"+key+" (lost)")
				continue
			}
			differences(path+"/"+key, b[key], value, out)
		}
	case json.Number:
		a, ok := after.(json.Number)
		x, errB := b.Float64()
		y, errA := a.Float64()
		if !ok || errA != nil || errB != nil || x != y {
			*out = append(*out, fmt.Sprintf("%s (%v became %v)", path, before, after))
		}
	default:
		if !reflect.DeepEqual(before, after) {
			*out = append(*out, fmt.Sprintf("%s (%v became %v)", path, before, after))
		}
	}
}

func main() {
	failed := 0
	for _, file := range os.Args[1:] {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var event Event
		if err := json.Unmarshal(data, &event); err != nil {
			fmt.Printf("%s: does not decode: %v\n", file, err)
			failed++
			continue
		}
		encoded, err := json.Marshal(event)
		if err != nil {
			fmt.Printf("%s: does not encode: %v\n", file, err)
			failed++
			continue
		}
		before, _ := generic(data)
		after, _ := generic(encoded)
		var lost []string
		differences("", before, after, &lost)
		if len(lost) > 0 {
			fmt.Printf("%s: changed: %v\n", file, lost)
			failed++
			continue
		}
		fmt.Printf("%s: ok\n", file)
	}
	if failed > 0 {
		os.Exit(1)
	}
}
