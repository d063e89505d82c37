module l9kit.dev/test/l9event

go 1.19
