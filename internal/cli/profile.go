package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// StartProfiles starts the CPU profile cpu names and returns the function
// that stops it and writes the heap profile mem names; either may be ""
// for none. The heap profile is taken without a collection first: its
// in-use figures are those of the run's last collection, near the peak,
// not of the emptied heap after the run. A profile that cannot be written
// at the end is reported on stderr under the command's name and does not
// change the run's result.
func StartProfiles(name, cpu, mem string, stderr io.Writer) (stop func(), err error) {
	var f *os.File
	if cpu != "" {
		if f, err = os.Create(cpu); err != nil {
			return nil, fmt.Errorf("-cpuprofile: %v", err)
		}
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("-cpuprofile: %v", err)
		}
	}
	return func() {
		if f != nil {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				fmt.Fprintf(stderr, "%s: -cpuprofile: %v\n", name, err)
			}
		}
		if mem == "" {
			return
		}
		h, err := os.Create(mem)
		if err != nil {
			fmt.Fprintf(stderr, "%s: -memprofile: %v\n", name, err)
			return
		}
		defer h.Close()
		if err := pprof.Lookup("heap").WriteTo(h, 0); err != nil {
			fmt.Fprintf(stderr, "%s: -memprofile: %v\n", name, err)
		}
	}, nil
}
