package peers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
)

// CacheDirEnv names the directory built and installed peers are kept in;
// unset, it is nip-rs-harness-peers under the user's cache directory.
const CacheDirEnv = "PEERS_CACHE_DIR"

// MissingToolError says which tools a peer needs and the system lacks.
type MissingToolError struct {
	Peer  string
	Tools []string
	Why   string
}

func (e *MissingToolError) Error() string {
	return fmt.Sprintf("%s needs %s on PATH (%s)", e.Peer, strings.Join(e.Tools, ", "), e.Why)
}

// needTools returns a MissingToolError for the tools not on PATH, nil if
// every one is there.
func needTools(peer, why string, tools ...string) error {
	var missing []string
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &MissingToolError{Peer: peer, Tools: missing, Why: why}
}

// cacheDir is where peers are built and installed, made if absent.
func cacheDir() (string, error) {
	dir := os.Getenv(CacheDirEnv)
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("peers: no cache directory (set %s): %w", CacheDirEnv, err)
		}
		dir = filepath.Join(base, "nip-rs-harness-peers")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, nil
}

// sourceDir is the directory of this package's source, where the nested
// modules and the JS relay's files are (the tests run from a checkout).
func sourceDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", fmt.Errorf("peers: the package's source directory is unknown (built with -trimpath?)")
	}
	return filepath.Dir(file), nil
}

// contentKey hashes the named files of dir and the extra strings (tool
// versions), so that a cache entry changes whenever any of them does.
func contentKey(dir string, files []string, extra ...string) (string, error) {
	h := sha256.New()
	files = slices.Sorted(slices.Values(files))
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	for _, s := range extra {
		fmt.Fprintf(h, "%s\n", s)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// withLock runs f holding an exclusive lock on name in the cache
// directory: the packages of one `go test` run start peers from several
// processes at once, and one of them builds while the others wait.
func withLock(ctx context.Context, dir, name string, f func() error) error {
	lf, err := os.OpenFile(filepath.Join(dir, name+".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lf.Close()
	locked := make(chan error, 1)
	go func() { locked <- syscall.Flock(int(lf.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-locked:
		if err != nil {
			return err
		}
	case <-ctx.Done():
		// The goroutine still waits on the lock; closing the file (the
		// deferred Close) ends its wait.
		return fmt.Errorf("peers: waiting for %s's lock: %w", name, ctx.Err())
	}
	defer func() { _ = syscall.Flock(int(lf.Fd()), syscall.LOCK_UN) }()
	return f()
}

// output runs a command and returns its trimmed stdout, with its stderr
// in the error.
func output(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	var stderr tailBuffer
	stderr.max = 8192
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}
