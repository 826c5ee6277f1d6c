package peers

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// goPeer returns the path of the nested module's program, building it
// into the cache if no binary of these exact sources and this Go version
// is there yet. The key needs go (its version); building needs gcc too,
// for the cgo stores (sqlite3, lmdb).
func goPeer(ctx context.Context, module string) (string, error) {
	src, err := sourceDir()
	if err != nil {
		return "", err
	}
	src = filepath.Join(src, module)
	files, err := moduleFiles(src)
	if err != nil {
		return "", err
	}
	if err := needTools(module, "to build the peer, a nested Go module", "go"); err != nil {
		return "", err
	}
	// The Go version is part of the key, so a toolchain upgrade rebuilds.
	gover, err := output(ctx, src, nil, "go", "env", "GOVERSION", "GOOS", "GOARCH")
	if err != nil {
		return "", err
	}
	key, err := contentKey(src, files, gover)
	if err != nil {
		return "", err
	}
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, module+"-"+key)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := needTools(module, "to build the peer's cgo store", "gcc"); err != nil {
		return "", err
	}
	err = withLock(ctx, dir, module, func() error {
		if _, err := os.Stat(bin); err == nil {
			return nil // built by another process while this one waited
		}
		tmp := bin + ".tmp"
		// GOWORK=off and -mod=readonly: the nested module builds from its
		// own committed go.mod and go.sum, never the enclosing module's.
		env := append(os.Environ(), "GOWORK=off", "CGO_ENABLED=1", "GOFLAGS=-mod=readonly -buildvcs=false")
		if _, err := output(ctx, src, env, "go", "build", "-o", tmp, "."); err != nil {
			_ = os.Remove(tmp)
			return err
		}
		return os.Rename(tmp, bin)
	})
	if err != nil {
		return "", err
	}
	return bin, nil
}

// moduleFiles lists what a nested module's build depends on: go.mod,
// go.sum and its Go files, relative to dir.
func moduleFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() || !(name == "go.mod" || name == "go.sum" || strings.HasSuffix(name, ".go")) {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		files = append(files, rel)
		return err
	})
	if err == nil && len(files) == 0 {
		err = errors.New("no Go files")
	}
	return files, err
}
