package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startProfile starts the CPU profile -cpuprofile names ("" for none) and
// returns the function that stops and writes it.
func startProfile(path string, stderr io.Writer) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-cpuprofile: %v", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(stderr, "mutate: -cpuprofile:", err)
		}
	}, nil
}
