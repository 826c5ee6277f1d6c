module github.com/nip-rs/harness

go 1.26
