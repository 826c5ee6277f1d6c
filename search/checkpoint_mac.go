package search

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A checkpoint's files are named, sized and hashed in its manifest, so a
// change to a file is caught; but whoever can write the files can write
// the manifest too, recomputing every SHA-256 (a zeroed tally, a dropped
// violating state). The manifest is therefore sealed with an HMAC-SHA256
// under a key kept outside the checkpoint: one per user, created on first
// use. A checkpoint altered by anyone without the key is refused; one
// written on another machine is refused too, unless its key is given
// (KeyEnv). Whoever holds the key can still forge one.

// KeyEnv names the environment variable that gives the key file's path;
// unset, the key lives in the user's configuration directory.
const KeyEnv = "HARNESS_CHECKPOINT_KEY"

const keyBytes = 32

// ErrCheckpointSeal reports a manifest whose seal does not verify under
// this user's key.
var ErrCheckpointSeal = errors.New("checkpoint manifest not sealed by this user's key (altered, or written with another key)")

// keyPath is where the key is read from and created.
func keyPath() (string, error) {
	if p := os.Getenv(KeyEnv); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("checkpoint key: %w (set %s)", err, KeyEnv)
	}
	return filepath.Join(dir, "nip-rs-harness", "checkpoint.key"), nil
}

// checkpointKey reads the key, creating it (mode 0600) when absent.
func checkpointKey() ([]byte, error) {
	p, err := keyPath()
	if err != nil {
		return nil, err
	}
	if k, err := readKey(p); err == nil || !errors.Is(err, os.ErrNotExist) {
		return k, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("checkpoint key: %w", err)
	}
	k := make([]byte, keyBytes)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("checkpoint key: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return readKey(p) // another process created it first
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint key: %w", err)
	}
	_, werr := f.Write(k)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("checkpoint key: %w", werr)
	}
	return k, nil
}

func readKey(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("checkpoint key %s: not a regular file", p)
	}
	k, err := io.ReadAll(io.LimitReader(f, keyBytes+1))
	if err != nil {
		return nil, err
	}
	if len(k) != keyBytes {
		return nil, fmt.Errorf("checkpoint key %s: %d bytes, want %d", p, len(k), keyBytes)
	}
	return k, nil
}

// sealed is the manifest's bytes as written: indented JSON whose mac
// member is the HMAC of the same document with an empty mac.
func sealed(m manifest) ([]byte, error) {
	key, err := checkpointKey()
	if err != nil {
		return nil, err
	}
	m.MAC = ""
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	m.MAC = macOf(key, b)
	return json.MarshalIndent(m, "", "  ")
}

// verifySeal reports whether m carries the seal of its own contents.
func verifySeal(m manifest) error {
	key, err := checkpointKey()
	if err != nil {
		return err
	}
	got := m.MAC
	m.MAC = ""
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if !hmac.Equal([]byte(got), []byte(macOf(key, b))) {
		return ErrCheckpointSeal
	}
	return nil
}

func macOf(key, b []byte) string {
	h := hmac.New(sha256.New, key)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}
