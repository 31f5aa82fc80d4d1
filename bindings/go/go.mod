module github.com/soundstation/soundstation/bindings/go

go 1.19
