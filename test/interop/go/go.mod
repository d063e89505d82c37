module l9kit.dev/test/gobytes

go 1.19
