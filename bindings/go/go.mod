module github.com/eredu/eredu/bindings/go

go 1.19
