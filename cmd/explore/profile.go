package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startProfiles starts the CPU profile -cpuprofile names and returns the
// function that stops it and writes the heap profile -memprofile names.
// The heap profile is taken without a collection first: its in-use figures
// are those of the run's last collection, near the peak, not of the
// emptied heap after the run. Either may be empty.
func startProfiles(o *options, stderr io.Writer) (stop func(), err error) {
	var cpu *os.File
	if o.cpuProfile != "" {
		if cpu, err = os.Create(o.cpuProfile); err != nil {
			return nil, fmt.Errorf("-cpuprofile: %v", err)
		}
		if err = pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("-cpuprofile: %v", err)
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				fmt.Fprintln(stderr, "explore: -cpuprofile:", err)
			}
		}
		if o.memProfile == "" {
			return
		}
		f, err := os.Create(o.memProfile)
		if err != nil {
			fmt.Fprintln(stderr, "explore: -memprofile:", err)
			return
		}
		defer f.Close()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			fmt.Fprintln(stderr, "explore: -memprofile:", err)
		}
	}, nil
}
