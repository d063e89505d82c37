module l9kit.dev/test/gosearch

go 1.19
