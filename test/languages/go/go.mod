module l9kit.dev/l9types-test

go 1.19

require l9kit.dev/l9types v0.0.0

replace l9kit.dev/l9types => ../../../schema/types/go
