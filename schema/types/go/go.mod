module l9kit.dev/l9types

go 1.19
