module l9kit.dev/examples/roundtrip

go 1.19
