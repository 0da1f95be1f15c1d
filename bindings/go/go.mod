module eredu.dev/bindings/go

go 1.19
